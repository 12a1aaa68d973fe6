import { Circle, CircleCheck, CircleDashed, CircleDot, CircleX } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Combobox, Select } from '../../../components/ui/Combobox';
import { Row } from './Row';

const STATUSES = [
  { value: 'backlog', label: 'Backlog', icon: CircleDashed },
  { value: 'todo', label: 'Todo', icon: Circle },
  { value: 'in_progress', label: 'In progress', icon: CircleDot },
  { value: 'done', label: 'Done', icon: CircleCheck },
  { value: 'cancelled', label: 'Cancelled', icon: CircleX },
];

const LABELS = ['Bug', 'Feature', 'Design', 'Infrastructure', 'Docs', 'Security', 'Performance', 'Billing'].map(
  (label) => ({ value: label.toLowerCase(), label }),
);

export function ComboboxSection() {
  const [status, setStatus] = useState('todo');
  const [labels, setLabels] = useState<string[]>(['bug']);
  const [submitted, setSubmitted] = useState('');
  return (
    <>
      <Row label="Select">
        <Select aria-label="Status" value={status} onChange={setStatus} options={STATUSES} />
        <Select aria-label="Priority" value={null} onChange={() => {}} options={[]} placeholder="No options" disabled />
      </Row>
      <Row label="Multiple">
        <Combobox
          multiple
          aria-label="Labels"
          value={labels}
          onChange={setLabels}
          options={LABELS}
          searchPlaceholder="Find a label…"
        />
      </Row>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(new FormData(event.currentTarget).getAll('status').join(', '));
        }}
      >
        <Row label="In a form">
          <label htmlFor="design-form-status">Status</label>
          <Select id="design-form-status" name="status" value={status} onChange={setStatus} options={STATUSES} />
          <Button type="submit" size="sm">
            Submit
          </Button>
          <span role="status">{submitted && `Submitted status: ${submitted}`}</span>
        </Row>
      </form>
    </>
  );
}

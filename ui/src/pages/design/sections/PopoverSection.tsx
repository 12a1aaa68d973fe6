import { Button } from '../../../components/ui/Button';
import { Popover } from '../../../components/ui/Popover';
import { Row } from './Row';

export function PopoverSection() {
  return (
    <Row label="Popover">
      <Popover trigger={<Button>Add a note</Button>} label="Add a note">
        <div className="field">
          <label htmlFor="design-note">Note</label>
          <textarea id="design-note" placeholder="Why approve this?" />
        </div>
        <Button variant="primary" size="sm">
          Save note
        </Button>
      </Popover>
    </Row>
  );
}

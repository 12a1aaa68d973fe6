import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { toast } from '../../../components/ui/Toast';
import { Row } from './Row';

export function ToastSection() {
  const [undone, setUndone] = useState(0);
  return (
    <Row label="Toasts">
      <Button onClick={() => toast({ tone: 'success', title: 'Issue created', description: 'NOR-12 is in Todo.' })}>
        Success
      </Button>
      <Button
        onClick={() =>
          toast({ tone: 'error', title: 'Could not save', description: 'The server did not answer; try again.' })
        }
      >
        Error
      </Button>
      <Button
        onClick={() =>
          toast({
            tone: 'info',
            title: 'Status changed to Done',
            action: { label: 'Undo', onClick: () => setUndone((count) => count + 1) },
          })
        }
      >
        With undo
      </Button>
      <span role="status">Undone {undone} times</span>
    </Row>
  );
}

import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Dialog, DialogActions, Sheet } from '../../../components/ui/Dialog';
import { Row } from './Row';

export function DialogSection() {
  const [dialog, setDialog] = useState(false);
  const [sheet, setSheet] = useState<'right' | 'bottom' | null>(null);
  return (
    <Row label="Overlays">
      <Button onClick={() => setDialog(true)}>Open dialog</Button>
      <Button onClick={() => setSheet('right')}>Open side sheet</Button>
      <Button onClick={() => setSheet('bottom')}>Open bottom sheet</Button>
      <Dialog
        open={dialog}
        onOpenChange={setDialog}
        title="Rename the issue"
        description="The new title shows everywhere."
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setDialog(false);
          }}
        >
          <div className="field">
            <label htmlFor="design-title">Title</label>
            <input id="design-title" defaultValue="Ship the design system" />
          </div>
          <DialogActions onCancel={() => setDialog(false)} label="Rename" busyLabel="Renaming…" busy={false} />
        </form>
      </Dialog>
      <Sheet
        open={sheet !== null}
        onOpenChange={(open) => !open && setSheet(null)}
        side={sheet ?? 'right'}
        title="Properties"
      >
        <p>A sheet holds details beside the page; on a phone it comes up from the bottom.</p>
      </Sheet>
    </Row>
  );
}

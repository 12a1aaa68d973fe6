// A modal dialog (Radix: focus trapped and restored, Escape closes, the title labels it).
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog" {...(!description && { 'aria-describedby': undefined })}>
          <RadixDialog.Title asChild>
            <h2>{title}</h2>
          </RadixDialog.Title>
          {description && <RadixDialog.Description className="muted">{description}</RadixDialog.Description>}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * A dialog's footer: Cancel, then the action, disabled while its call is out and saying so
 * (`busyLabel`), or while it cannot be taken (`disabled`). In a form the action submits it; with
 * `onConfirm` (a confirmation, no form) it calls that.
 */
export function DialogActions({
  onCancel,
  onConfirm,
  label,
  busyLabel,
  busy,
  disabled = false,
  tone = 'primary',
}: {
  onCancel: () => void;
  onConfirm?: () => void;
  label: string;
  busyLabel: string;
  busy: boolean;
  disabled?: boolean;
  tone?: 'primary' | 'danger';
}) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button type={onConfirm ? 'button' : 'submit'} className={tone} disabled={busy || disabled} onClick={onConfirm}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}

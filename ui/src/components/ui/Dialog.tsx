// A modal dialog (Radix: focus trapped and restored, Escape closes, the title labels it), and `Sheet`,
// the same modal sliding in from the right edge or, on a phone, up from the bottom.
import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { Button, IconButton } from './Button';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}

function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  closeButton,
}: ModalProps & { className: string; closeButton: boolean }) {
  // Radix returns focus only to a Dialog.Trigger; these dialogs are opened by any button, a menu item
  // or a key, so focus goes back to whatever had it when the dialog opened (if it is still there).
  const returnFocusTo = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (open) returnFocusTo.current = document.activeElement;
  }, [open]);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={className}
          {...(!description && { 'aria-describedby': undefined })}
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo.current;
            if (target instanceof HTMLElement && target.isConnected && target !== document.body) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          <RadixDialog.Title asChild>
            <h2>{title}</h2>
          </RadixDialog.Title>
          {description && <RadixDialog.Description className="muted">{description}</RadixDialog.Description>}
          {children}
          {/* After the content, so the first field (not this) gets the focus on open. */}
          {closeButton && (
            <RadixDialog.Close asChild>
              <IconButton icon={X} aria-label="Close" size="sm" className="dialog-close" />
            </RadixDialog.Close>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export function Dialog({ size = 'md', ...props }: ModalProps & { size?: 'sm' | 'md' | 'lg' }) {
  // No corner ×: Escape closes it and every dialog's footer has its Cancel or Close.
  return <Modal {...props} className={`dialog dialog-${size}`} closeButton={false} />;
}

/** A panel over the page's edge: `right` (details, a drawer), `bottom` (a phone's picker). At 390 px both come up from the bottom. */
export function Sheet({ side = 'right', ...props }: ModalProps & { side?: 'right' | 'bottom' }) {
  return <Modal {...props} className={`sheet sheet-${side}`} closeButton />;
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
      <Button onClick={onCancel}>Cancel</Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        variant={tone === 'danger' ? 'destructive' : 'primary'}
        loading={busy}
        disabled={disabled}
        onClick={onConfirm}
      >
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}

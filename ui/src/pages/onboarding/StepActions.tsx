import type { ReactNode } from 'react';

/** The row under a step: Back (when there is one) and the step's main action. */
export function StepActions({ onBack, children }: { onBack?: () => void; children: ReactNode }) {
  return (
    <div className="step-actions">
      {onBack && (
        <button type="button" onClick={onBack}>
          Back
        </button>
      )}
      {children}
    </div>
  );
}

/** A step's summary once it created its record: going back shows it instead of creating it again. */
export function CreatedSummary({
  what,
  name,
  onContinue,
  onBack,
}: {
  what: string;
  name: string;
  onContinue: () => void;
  onBack?: () => void;
}) {
  return (
    <>
      <p>
        {what} <strong>{name}</strong> was created. You can change it later from its page.
      </p>
      <StepActions onBack={onBack}>
        <button type="button" className="primary" autoFocus onClick={onContinue}>
          Continue
        </button>
      </StepActions>
    </>
  );
}

/** A field's own error, tied to the input by id. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className="field-error">
      {message}
    </span>
  );
}

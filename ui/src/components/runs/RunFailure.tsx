// Why a run ended badly, for people: its code's plain meaning and what to do about it (the API's
// errorHelp, written once on the server in src/core/run-failures.ts), then the run's own detail.
// Never the code itself. A run that ended before codes were recorded shows its detail alone.

export interface RunFailureFields {
  error?: string | null;
  errorHelp?: { meaning: string; action: string } | null;
}

export function RunFailure({ run }: { run: RunFailureFields }) {
  if (!run.errorHelp && !run.error) return null;
  return (
    <div className="run-failure">
      {run.errorHelp && (
        <p>
          <span className="run-failure-meaning">{run.errorHelp.meaning}</span> {run.errorHelp.action}
        </p>
      )}
      {run.error && <p className="muted">Detail: {run.error}</p>}
    </div>
  );
}

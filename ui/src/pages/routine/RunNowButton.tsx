// "Run now": a manual run, decided at once by the server (issue created, joined, skipped or failed).
// A routine with variables asks for their values first, each filled with its default.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { routineRunStatuses } from '../../lib/statuses';
import { routineKeys, routineListKeys, type RoutineDetail } from '../../queries/routines';
import { ValueInput } from './VariableFields';
import { fromInput, toInput, type VariableValue } from './variables';

type Values = Record<string, VariableValue>;

export function RunNowButton({ companyId, routine }: { companyId: string; routine: RoutineDetail }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const run = useMutation({
    mutationFn: async (variables: Values | undefined) =>
      data(
        await api.POST('/api/routines/{routineId}/run', {
          params: { path: { routineId: routine.id } },
          body: { source: 'manual', ...(variables && { variables }) },
        }),
      ),
    onSuccess: () => setAsking(false),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: routineKeys.detail(companyId, routine.id) }),
        queryClient.invalidateQueries({ queryKey: routineListKeys.all(companyId) }),
      ]),
  });
  const hasVariables = routine.variables.length > 0;
  return (
    <div className="routine-run-now">
      <button
        type="button"
        className="primary"
        disabled={run.isPending || routine.status === 'archived'}
        onClick={() => (hasVariables ? setAsking(true) : run.mutate(undefined))}
      >
        {run.isPending ? 'Running…' : hasVariables ? 'Run now…' : 'Run now'}
      </button>
      <span role="status" className="muted">
        {run.data &&
          `Last manual run: ${routineRunStatuses.label(run.data.status).toLowerCase()}${run.data.failureReason ? ` (${run.data.failureReason})` : ''}`}
      </span>
      {run.isError && !asking && <ErrorNotice error={run.error} title="The routine did not run" />}
      {asking && (
        <VariablesDialog
          routine={routine}
          busy={run.isPending}
          error={run.isError ? run.error : null}
          onRun={(values) => run.mutate(values)}
          onClose={() => setAsking(false)}
        />
      )}
    </div>
  );
}

function VariablesDialog({
  routine,
  busy,
  error,
  onRun,
  onClose,
}: {
  routine: RoutineDetail;
  busy: boolean;
  error: unknown;
  onRun: (values: Values) => void;
  onClose: () => void;
}) {
  const [inputs, setInputs] = useState<Record<string, string>>(() =>
    Object.fromEntries(routine.variables.map((v) => [v.name, toInput(v.defaultValue)])),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const values: Values = {};
    for (const variable of routine.variables) {
      const value = fromInput(inputs[variable.name] ?? '', variable.type);
      if (value !== null) values[variable.name] = value;
    }
    onRun(values);
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Run ${routine.title} now`}
      description="The values for this run; the defaults are filled in."
    >
      <form onSubmit={submit}>
        {routine.variables.map((variable) => (
          <div className="field" key={variable.name}>
            <label htmlFor={`run-variable-${variable.name}`}>
              {variable.label || variable.name}
              {variable.required && <span className="muted"> (required)</span>}
            </label>
            <ValueInput
              id={`run-variable-${variable.name}`}
              type={variable.type}
              required={variable.required}
              value={inputs[variable.name] ?? ''}
              onChange={(value) => setInputs({ ...inputs, [variable.name]: value })}
            />
          </div>
        ))}
        {Boolean(error) && <ErrorNotice error={error} title="The routine did not run" />}
        <DialogActions onCancel={onClose} label="Run" busyLabel="Running…" busy={busy} />
      </form>
    </Dialog>
  );
}

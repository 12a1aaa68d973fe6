// Resolving a budget incident as the API allows: keep the scope paused (for a warning: close it), or
// raise the budget above what was spent and resume what the stop paused. Used by the inbox and the
// budgets page, which both list open incidents.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { agentListKeys } from '../../queries/agents';
import { budgetKeys } from '../../queries/budgets';
import { inboxKeys } from '../../queries/inbox';
import { Dialog } from '../Dialog';
import { ErrorNotice } from '../ErrorNotice';

/** What the dialog needs of an incident: the inbox item and the budgets page's row both have it. */
export interface IncidentToResolve {
  incidentId: string;
  incidentKind: 'soft' | 'hard';
  scopeType: string;
  scopeName: string | null;
  metric: string;
  observed: number;
}

export function ResolveIncidentButton({ companyId, item }: { companyId: string; item: IncidentToResolve }) {
  const [open, setOpen] = useState(false);
  const money = item.metric === 'billed_cents';
  const hard = item.incidentKind === 'hard';
  const [action, setAction] = useState<'keep_paused' | 'raise_budget_and_resume'>('raise_budget_and_resume');
  const [amount, setAmount] = useState(() =>
    String(money ? Math.ceil((item.observed * 1.5) / 100) : Math.ceil(item.observed * 1.5)),
  );
  const queryClient = useQueryClient();
  const resolve = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/companies/{companyId}/budget-incidents/{incidentId}/resolve', {
          params: { path: { companyId, incidentId: item.incidentId } },
          body:
            action === 'keep_paused'
              ? { action }
              : { action, amount: money ? Math.round(Number(amount) * 100) : Math.round(Number(amount)) },
        }),
      ),
    onSuccess: () => {
      setOpen(false);
      for (const resource of [inboxKeys, budgetKeys, agentListKeys])
        void queryClient.invalidateQueries({ queryKey: resource.all(companyId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    resolve.mutate();
  };
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Resolve…
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Resolve the budget ${hard ? 'stop' : 'warning'} of ${item.scopeName ?? item.scopeType}`}
      >
        <form onSubmit={submit}>
          <fieldset className="field">
            <legend>Resolution</legend>
            <label>
              <input
                type="radio"
                name={`action-${item.incidentId}`}
                checked={action === 'raise_budget_and_resume'}
                onChange={() => setAction('raise_budget_and_resume')}
              />{' '}
              {hard ? 'Raise the budget and resume' : 'Raise the budget'}
            </label>
            <label>
              <input
                type="radio"
                name={`action-${item.incidentId}`}
                checked={action === 'keep_paused'}
                onChange={() => setAction('keep_paused')}
              />{' '}
              {hard ? 'Keep paused' : 'Close the warning, keep the budget'}
            </label>
          </fieldset>
          {action === 'raise_budget_and_resume' && (
            <div className="field">
              <label htmlFor={`amount-${item.incidentId}`}>New budget{money ? ' (USD)' : ` (${item.metric})`}</label>
              <input
                id={`amount-${item.incidentId}`}
                type="number"
                min={1}
                step={money ? 0.01 : 1}
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                required
              />
              <span className="hint">
                Must exceed what was spent:{' '}
                {money ? `$${(item.observed / 100).toFixed(2)}` : item.observed.toLocaleString()}.
              </span>
            </div>
          )}
          {resolve.isError && <ErrorNotice error={resolve.error} title="The incident was not resolved" />}
          <div className="page-actions">
            <button type="submit" className="primary" disabled={resolve.isPending}>
              Resolve
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

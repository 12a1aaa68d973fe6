// Resolving a budget incident as the API allows: keep the scope paused (for a warning: close it), or
// raise the budget above what was spent and resume what the stop paused. The budgets page offers both
// in a dialog (ResolveIncidentButton); the inbox and the approvals list offer the raise in place
// (RaiseBudgetButton). Both send the same call (useResolveIncident).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TrendingUp } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { agentListKeys } from '../../queries/agents';
import { approvalKeys, approvalListKeys } from '../../queries/approvals';
import { budgetKeys } from '../../queries/budgets';
import { inboxKeys } from '../../queries/inbox';
import { Dialog } from '../Dialog';
import { ErrorNotice } from '../ErrorNotice';
import { Button } from '../ui/Button';
import { Popover } from '../ui/Popover';
import { budgetAmount, parseAmount } from './amounts';

/** What resolving needs of an incident: the inbox item, the budgets page's row and an override approval have it. */
export interface IncidentToResolve {
  incidentId: string;
  incidentKind: 'soft' | 'hard';
  scopeType: string;
  scopeName: string | null;
  metric: string;
  observed: number;
  /** The budget when the incident was raised (a raise starts from it). */
  amount?: number;
}

type Resolution = { action: 'keep_paused' } | { action: 'raise_budget_and_resume'; amount: number };

/** The resolve call; on success the views that show budgets, incidents, overrides and paused agents read again. */
function useResolveIncident(companyId: string, incidentId: string, onResolved: (resolution: Resolution) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Resolution) =>
      data(
        await api.POST('/api/companies/{companyId}/budget-incidents/{incidentId}/resolve', {
          params: { path: { companyId, incidentId } },
          body,
        }),
      ),
    onSuccess: (_incident, resolution) => onResolved(resolution),
    onSettled: () => {
      for (const resource of [inboxKeys, budgetKeys, agentListKeys, approvalKeys, approvalListKeys])
        void queryClient.invalidateQueries({ queryKey: resource.all(companyId) });
    },
  });
}

/** A raise people would pick: half again the budget, and always above what was spent (whole dollars for money). */
function suggestedRaise(item: IncidentToResolve): string {
  const target = Math.max((item.amount ?? item.observed) * 1.5, item.observed * 1.2);
  return item.metric === 'billed_cents' ? String(Math.ceil(target / 100)) : String(Math.ceil(target));
}

/** "Raise budget and resume" in place: a popover with the new amount (dollars for money) and a confirm button. */
export function RaiseBudgetButton({
  companyId,
  item,
  onResolved,
}: {
  companyId: string;
  item: IncidentToResolve;
  onResolved?: (newAmount: number) => void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(() => suggestedRaise(item));
  const [invalid, setInvalid] = useState<string | null>(null);
  const id = useId();
  const hard = item.incidentKind === 'hard';
  const label = hard ? 'Raise budget and resume' : 'Raise budget';
  const resolve = useResolveIncident(companyId, item.incidentId, (resolution) => {
    setOpen(false);
    if (resolution.action === 'raise_budget_and_resume') onResolved?.(resolution.amount);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = parseAmount(item.metric, text);
    if (!(amount > item.observed)) {
      setInvalid(`Enter an amount above what was spent: ${budgetAmount(item.metric, item.observed)}.`);
      return;
    }
    setInvalid(null);
    resolve.mutate({ action: 'raise_budget_and_resume', amount });
  };
  const money = item.metric === 'billed_cents';
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label={`${label}: ${item.scopeName ?? item.scopeType}`}
      align="end"
      className="decision-popover"
      trigger={
        <Button size="sm" variant="primary" icon={TrendingUp}>
          {label}
        </Button>
      }
    >
      <form onSubmit={submit} className="decision-form">
        <div className="field">
          <label htmlFor={`${id}-amount`}>New budget{money ? ' (USD)' : ` (${item.metric})`}</label>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-describedby={`${id}-hint`}
            aria-invalid={invalid ? true : undefined}
            required
          />
          <span className="hint" id={`${id}-hint`}>
            {invalid ?? `Above what was spent: ${budgetAmount(item.metric, item.observed)}.`}
          </span>
        </div>
        {resolve.isError && <ErrorNotice error={resolve.error} title="The budget was not raised" />}
        <Button type="submit" variant="primary" size="sm" loading={resolve.isPending}>
          {resolve.isPending ? 'Raising…' : label}
        </Button>
      </form>
    </Popover>
  );
}

export function ResolveIncidentButton({ companyId, item }: { companyId: string; item: IncidentToResolve }) {
  const [open, setOpen] = useState(false);
  const money = item.metric === 'billed_cents';
  const hard = item.incidentKind === 'hard';
  const [action, setAction] = useState<'keep_paused' | 'raise_budget_and_resume'>('raise_budget_and_resume');
  const [amount, setAmount] = useState(() => suggestedRaise(item));
  const resolve = useResolveIncident(companyId, item.incidentId, () => setOpen(false));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    resolve.mutate(action === 'keep_paused' ? { action } : { action, amount: parseAmount(item.metric, amount) });
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
              <span className="hint">Must exceed what was spent: {budgetAmount(item.metric, item.observed)}.</span>
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

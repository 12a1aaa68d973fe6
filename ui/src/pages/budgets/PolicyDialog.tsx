// Create or change a budget policy. The server validates (amount bounds, warn threshold, one active
// policy per scope, metric and window) and its 400 and 422 answers are shown at their fields; the
// form itself only converts dollars to cents.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../../api/client';
import { bodyFieldErrors } from '../../api/field-errors';
import { amountField, parseAmount, type BudgetMetric } from '../../components/budgets/amounts';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { agentListKeys } from '../../queries/agents';
import { budgetKeys, type Policy, type ScopeType } from '../../queries/budgets';
import { costKeys } from '../../queries/costs';

interface Draft {
  scopeType: ScopeType;
  scopeId: string;
  metric: BudgetMetric;
  windowKind: 'calendar_month_utc' | 'lifetime';
  amount: string;
  warnPercent: string;
  hardStopEnabled: boolean;
  notifyEnabled: boolean;
  isActive: boolean;
}

const METRIC_LABEL: Record<BudgetMetric, string> = {
  billed_cents: 'Spend (USD)',
  tokens: 'Tokens (input + output)',
  runs: 'Finished runs',
};

function draftOf(policy: Policy | null): Draft {
  if (!policy)
    return {
      scopeType: 'agent',
      scopeId: '',
      metric: 'billed_cents',
      windowKind: 'calendar_month_utc',
      amount: '',
      warnPercent: '80',
      hardStopEnabled: true,
      notifyEnabled: true,
      isActive: true,
    };
  return { ...policy, amount: amountField(policy.metric, policy.amount), warnPercent: String(policy.warnPercent) };
}

/** Problems by field: a 400's per-field details, and a 422 naming the scope (`details.scopeId`). */
function fieldErrors(error: unknown): Record<string, string> {
  if (
    error instanceof ApiError &&
    error.status === 422 &&
    error.details &&
    typeof error.details === 'object' &&
    'scopeId' in error.details
  )
    return { scopeId: error.message };
  return bodyFieldErrors(error);
}

export function PolicyDialog({
  companyId,
  policy,
  scopes,
  open,
  onOpenChange,
}: {
  companyId: string;
  policy: Policy | null;
  scopes: {
    agents: { id: string; name: string }[];
    projects: { id: string; name: string }[];
    nameOf: (type: string, id: string) => string;
  };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(policy));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const queryClient = useQueryClient();
  const id = useId();
  const save = useMutation({
    mutationFn: async () => {
      const amount = parseAmount(draft.metric, draft.amount);
      const warnPercent = Number(draft.warnPercent);
      const common = {
        amount,
        warnPercent,
        hardStopEnabled: draft.hardStopEnabled,
        notifyEnabled: draft.notifyEnabled,
      };
      if (policy) {
        return data(
          await api.PATCH('/api/companies/{companyId}/budgets/policies/{policyId}', {
            params: { path: { companyId, policyId: policy.id } },
            body: { ...common, isActive: draft.isActive },
          }),
        );
      }
      const scope = draft.scopeType === 'company' ? {} : { scopeId: draft.scopeId };
      return data(
        await api.POST('/api/companies/{companyId}/budgets/policies', {
          params: { path: { companyId } },
          body: { ...common, ...scope, scopeType: draft.scopeType, metric: draft.metric, windowKind: draft.windowKind },
        }),
      );
    },
    onSuccess: () => {
      onOpenChange(false);
      for (const resource of [budgetKeys, agentListKeys, costKeys])
        void queryClient.invalidateQueries({ queryKey: resource.all(companyId) });
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const field = (name: string) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const fieldError = (name: string) =>
    errors[name] && (
      <span id={`${id}-${name}-error`} className="field-error">
        {errors[name]}
      </span>
    );
  const leftOver = Object.keys(errors).filter((name) => !['scopeId', 'amount', 'warnPercent'].includes(name));
  const title = policy
    ? `Edit the ${policy.scopeType} budget of ${scopes.nameOf(policy.scopeType, policy.scopeId)}`
    : 'New budget policy';

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title}>
      <form onSubmit={submit} noValidate className="money-form">
        {!policy && (
          <>
            <div className="field">
              <label htmlFor={`${id}-scopeType`}>Applies to</label>
              <Select
                id={`${id}-scopeType`}
                value={draft.scopeType}
                onChange={(scopeType: ScopeType) =>
                  setDraft((d) => ({
                    ...d,
                    scopeType,
                    scopeId: '',
                    windowKind: scopeType === 'project' ? 'lifetime' : 'calendar_month_utc',
                  }))
                }
                options={[
                  { value: 'company', label: 'The company' },
                  { value: 'agent', label: 'An agent' },
                  { value: 'project', label: 'A project' },
                ]}
              />
            </div>
            {draft.scopeType !== 'company' && (
              <div className="field">
                <label htmlFor={`${id}-scopeId`}>{draft.scopeType === 'agent' ? 'Agent' : 'Project'}</label>
                <Select
                  id={`${id}-scopeId`}
                  aria-describedby={errors.scopeId ? `${id}-scopeId-error` : undefined}
                  value={draft.scopeId || null}
                  searchPlaceholder={draft.scopeType === 'agent' ? 'Find an agent…' : 'Find a project…'}
                  onChange={(scopeId) => set('scopeId', scopeId)}
                  options={(draft.scopeType === 'agent' ? scopes.agents : scopes.projects).map((s) => ({
                    value: s.id,
                    label: s.name,
                  }))}
                />
                {fieldError('scopeId')}
              </div>
            )}
            <div className="field">
              <label htmlFor={`${id}-metric`}>Measures</label>
              <Select
                id={`${id}-metric`}
                value={draft.metric}
                onChange={(metric) => set('metric', metric)}
                options={(Object.entries(METRIC_LABEL) as [BudgetMetric, string][]).map(([value, label]) => ({
                  value,
                  label,
                }))}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-window`}>Window</label>
              <Select
                id={`${id}-window`}
                value={draft.windowKind}
                onChange={(windowKind) => set('windowKind', windowKind)}
                options={[
                  { value: 'calendar_month_utc' as const, label: 'Each calendar month (UTC)' },
                  { value: 'lifetime' as const, label: 'Lifetime' },
                ]}
              />
            </div>
          </>
        )}
        <div className="field">
          <label htmlFor={`${id}-amount`}>
            Budget{draft.metric === 'billed_cents' ? ' (USD)' : draft.metric === 'tokens' ? ' (tokens)' : ' (runs)'}
          </label>
          <input
            {...field('amount')}
            inputMode="decimal"
            value={draft.amount}
            onChange={(e) => set('amount', e.target.value)}
          />
          {fieldError('amount')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-warnPercent`}>Warn at (percent)</label>
          <input
            {...field('warnPercent')}
            type="number"
            inputMode="numeric"
            value={draft.warnPercent}
            onChange={(e) => set('warnPercent', e.target.value)}
          />
          {fieldError('warnPercent')}
        </div>
        <label className="wide">
          <input
            type="checkbox"
            checked={draft.hardStopEnabled}
            onChange={(e) => set('hardStopEnabled', e.target.checked)}
          />{' '}
          Hard stop at 100%: pause the {draft.scopeType === 'company' ? 'working agents' : draft.scopeType} and cancel
          running runs
        </label>
        <label className="wide">
          <input
            type="checkbox"
            checked={draft.notifyEnabled}
            onChange={(e) => set('notifyEnabled', e.target.checked)}
          />{' '}
          Raise a warning at the warn threshold
        </label>
        {policy && (
          <label className="wide">
            <input type="checkbox" checked={draft.isActive} onChange={(e) => set('isActive', e.target.checked)} />{' '}
            Active (switched off, the policy stops counting and leaves this list)
          </label>
        )}
        {save.isError && (
          <div className="wide">
            <ErrorNotice
              error={save.error}
              title={policy ? 'The budget was not changed' : 'The budget was not created'}
            >
              {leftOver.length > 0 && (
                <ul>
                  {leftOver.map((name) => (
                    <li key={name}>
                      {name}: {errors[name]}
                    </li>
                  ))}
                </ul>
              )}
            </ErrorNotice>
          </div>
        )}
        <div className="page-actions wide">
          <button type="submit" className="primary" disabled={save.isPending}>
            {policy ? 'Save' : 'Create budget'}
          </button>
          <button type="button" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

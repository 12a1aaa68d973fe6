// Record a finance event (an invoice, a fee, a credit purchase, a refund). Each draft carries one
// idempotency key until the server has recorded it: a submit retried after a network error (the
// first attempt may have been recorded before the connection dropped) gets the first event back
// (200) instead of a second one. The key is renewed only once a record has succeeded.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, data } from '../../api/client';
import { bodyFieldErrors } from '../../api/field-errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { moneyIn } from '../../lib/format';
import { financeKeys } from '../../queries/finance';

const FIELDS = ['kind', 'amountCents', 'currency', 'occurredAt', 'biller', 'description'];
const KINDS = ['inference_charge', 'platform_fee', 'credit_purchase', 'credit_refund', 'manual_adjustment'];

/** Now as a datetime-local value (local time, minutes). */
function localNow(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const emptyDraft = () => ({
  kind: '',
  direction: 'debit' as 'debit' | 'credit',
  amount: '',
  currency: 'USD',
  occurredAt: localNow(),
  biller: '',
  description: '',
  estimated: false,
});

export function RecordFinanceEvent({ companyId }: { companyId: string }) {
  const [draft, setDraft] = useState(emptyDraft);
  const idempotencyKey = useRef(crypto.randomUUID());
  const [recorded, setRecorded] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const id = useId();
  const record = useMutation({
    mutationFn: async () => {
      const amount = Number(draft.amount.replace(/[,\s]/g, ''));
      const occurred = new Date(draft.occurredAt);
      const result = await api.POST('/api/companies/{companyId}/finance-events', {
        params: { path: { companyId } },
        body: {
          kind: draft.kind,
          direction: draft.direction,
          // Not a number stays NaN, sent as null: the server names the field.
          amountCents: draft.amount.trim() === '' ? Number.NaN : Math.round(amount * 100),
          currency: draft.currency.trim().toUpperCase(),
          occurredAt: Number.isNaN(occurred.getTime()) ? draft.occurredAt : occurred.toISOString(),
          estimated: draft.estimated,
          ...(draft.biller.trim() && { biller: draft.biller.trim() }),
          ...(draft.description.trim() && { description: draft.description.trim() }),
          idempotencyKey: idempotencyKey.current,
        },
      });
      return { event: data(result), repeat: result.response.status === 200 };
    },
    onSuccess: ({ event, repeat }) => {
      const what = `${event.kind}, ${event.direction} ${moneyIn(event.amountCents, event.currency)}`;
      setRecorded(
        repeat
          ? `Already recorded: ${what}. The retry returned the first record; nothing was counted twice.`
          : `Recorded: ${what}.`,
      );
      idempotencyKey.current = crypto.randomUUID();
      setDraft(emptyDraft());
      void queryClient.invalidateQueries({ queryKey: financeKeys.all(companyId) });
    },
  });
  const errors = bodyFieldErrors(record.error);
  const leftOver = Object.keys(errors).filter((name) => !FIELDS.includes(name));
  const set = <K extends keyof ReturnType<typeof emptyDraft>>(key: K, value: ReturnType<typeof emptyDraft>[K]) => {
    setRecorded(null);
    setDraft((d) => ({ ...d, [key]: value }));
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate();
  };

  return (
    <section className="card" aria-labelledby="record-finance">
      <h2 id="record-finance">Record a finance event</h2>
      <form onSubmit={submit} noValidate className="money-form">
        <div className="field">
          <label htmlFor={`${id}-kind`}>Kind</label>
          <input
            {...field('kind')}
            list={`${id}-kinds`}
            value={draft.kind}
            onChange={(e) => set('kind', e.target.value)}
            placeholder="e.g. platform_fee"
          />
          <datalist id={`${id}-kinds`}>
            {KINDS.map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
          {fieldError('kind')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-direction`}>Direction</label>
          <Select
            id={`${id}-direction`}
            value={draft.direction}
            onChange={(direction) => set('direction', direction)}
            options={[
              { value: 'debit' as const, label: 'Debit: money out' },
              { value: 'credit' as const, label: 'Credit: money in' },
            ]}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-amountCents`}>Amount</label>
          <input
            {...field('amountCents')}
            inputMode="decimal"
            value={draft.amount}
            onChange={(e) => set('amount', e.target.value)}
            placeholder="e.g. 120.50"
          />
          {fieldError('amountCents')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-currency`}>Currency</label>
          <input
            {...field('currency')}
            value={draft.currency}
            onChange={(e) => set('currency', e.target.value)}
            maxLength={3}
            autoCapitalize="characters"
          />
          {fieldError('currency')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-occurredAt`}>When</label>
          <input
            {...field('occurredAt')}
            type="datetime-local"
            value={draft.occurredAt}
            onChange={(e) => set('occurredAt', e.target.value)}
          />
          {fieldError('occurredAt')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-biller`}>
            Biller <span className="muted">(optional)</span>
          </label>
          <input
            {...field('biller')}
            value={draft.biller}
            onChange={(e) => set('biller', e.target.value)}
            placeholder="e.g. openrouter"
          />
          {fieldError('biller')}
        </div>
        <div className="field wide">
          <label htmlFor={`${id}-description`}>
            Note <span className="muted">(optional)</span>
          </label>
          <input
            {...field('description')}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
          />
          {fieldError('description')}
        </div>
        <label className="wide">
          <input type="checkbox" checked={draft.estimated} onChange={(e) => set('estimated', e.target.checked)} /> An
          estimate, not an invoiced amount
        </label>
        {record.isError && (
          <div className="wide">
            <ErrorNotice error={record.error} title="The finance event was not recorded">
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
            {record.error instanceof ApiError && record.error.status === 0 && (
              <p className="muted">
                Submitting again is safe: if the first attempt reached the server, it is returned, not recorded twice.
              </p>
            )}
          </div>
        )}
        <div className="page-actions wide">
          <button type="submit" className="primary" disabled={record.isPending}>
            Record
          </button>
          <p role="status" className="muted">
            {recorded}
          </p>
        </div>
      </form>
    </section>
  );
}

// A routine's triggers: schedules (cron in a zone, with the server's preview of the next fire times),
// webhooks (URL and secret shown once, on creation or rotation) and API triggers; add, edit, enable,
// rotate and delete.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fullTime, timeAgo } from '../../lib/format';
import { routineStatuses } from '../../lib/statuses';
import { routineKeys, routineListKeys, type RoutineDetail } from '../../queries/routines';
import { helpOf, KIND_LABELS, SIGNING_MODES, type SigningMode, type Trigger } from '../routines/model';
import { ScheduleFields } from './ScheduleFields';
import { SchedulePreview } from './SchedulePreview';

type Issued = paths['/api/routines/{routineId}/triggers']['post']['responses'][201]['content']['application/json'];
type TriggerPatch = NonNullable<
  paths['/api/routine-triggers/{triggerId}']['patch']['requestBody']
>['content']['application/json'];

export function Triggers({ companyId, routine }: { companyId: string; routine: RoutineDetail }) {
  // The one response that carries a webhook's URL and secret: shown until dismissed, never fetched again.
  const [issued, setIssued] = useState<Issued | null>(null);
  const archived = routine.status === 'archived';
  return (
    <section className="card routine-section" aria-labelledby="routine-triggers">
      <h2 id="routine-triggers">Triggers</h2>
      {issued?.webhookUrl && <IssuedWebhook issued={issued} onDismiss={() => setIssued(null)} />}
      {routine.triggers.length === 0 ? (
        <p className="muted">No triggers: the routine runs only when you press Run now.</p>
      ) : (
        <ul className="routine-triggers" aria-label="Triggers">
          {routine.triggers.map((trigger) => (
            <TriggerItem
              key={trigger.id}
              companyId={companyId}
              routine={routine}
              trigger={trigger}
              onIssued={setIssued}
            />
          ))}
        </ul>
      )}
      {!archived && <AddTrigger companyId={companyId} routineId={routine.id} onIssued={setIssued} />}
    </section>
  );
}

function IssuedWebhook({ issued, onDismiss }: { issued: Issued; onDismiss: () => void }) {
  return (
    <div className="notice notice-warning routine-issued" role="status">
      <strong>Copy these now: they are shown only this once.</strong>
      <dl className="facts">
        <dt>Webhook URL</dt>
        <dd>
          <code>{issued.webhookUrl}</code>
        </dd>
        <dt>Secret</dt>
        <dd>
          {issued.webhookSecret ? (
            <code>{issued.webhookSecret}</code>
          ) : (
            <span className="muted">none (signing mode none: the URL is the credential)</span>
          )}
        </dd>
      </dl>
      <button type="button" onClick={onDismiss}>
        I have copied them
      </button>
    </div>
  );
}

function useInvalidateRoutine(companyId: string, routineId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: routineKeys.detail(companyId, routineId) }),
      queryClient.invalidateQueries({ queryKey: routineListKeys.all(companyId) }),
    ]);
}

function TriggerItem({
  companyId,
  routine,
  trigger,
  onIssued,
}: {
  companyId: string;
  routine: RoutineDetail;
  trigger: Trigger;
  onIssued: (issued: Issued) => void;
}) {
  const invalidate = useInvalidateRoutine(companyId, routine.id);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const name = trigger.label || `${KIND_LABELS[trigger.kind]} trigger`;
  const patch = useMutation({
    mutationFn: async (body: TriggerPatch) =>
      data(await api.PATCH('/api/routine-triggers/{triggerId}', { params: { path: { triggerId: trigger.id } }, body })),
    onSuccess: (after) => {
      if ('webhookUrl' in after && after.webhookUrl) onIssued(after);
      setEditing(false);
    },
    onSettled: invalidate,
  });
  const rotate = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/routine-triggers/{triggerId}/rotate-secret', {
          params: { path: { triggerId: trigger.id } },
        }),
      ),
    onSuccess: onIssued,
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: async () =>
      data(await api.DELETE('/api/routine-triggers/{triggerId}', { params: { path: { triggerId: trigger.id } } })),
    onSettled: invalidate,
  });
  const failed = [patch, rotate, remove].find((mutation) => mutation.isError);

  return (
    <li className="routine-trigger">
      <div className="routine-trigger-head">
        <span className="badge badge-accent">{KIND_LABELS[trigger.kind]}</span>
        <strong>{name}</strong>
        <label className="routine-enabled">
          <input
            type="checkbox"
            checked={trigger.enabled}
            disabled={patch.isPending}
            onChange={(event) => patch.mutate({ enabled: event.target.checked })}
          />
          Enabled
        </label>
        <span className="routine-trigger-actions">
          {trigger.kind === 'schedule' && (
            <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
              {editing ? 'Cancel edit' : 'Edit'}
            </button>
          )}
          {trigger.kind === 'webhook' && trigger.signingMode !== 'none' && (
            <button type="button" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
              Rotate secret
            </button>
          )}
          {confirmingDelete ? (
            <>
              <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Delete {name}
              </button>
              <button type="button" onClick={() => setConfirmingDelete(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirmingDelete(true)}>
              Delete
            </button>
          )}
        </span>
      </div>
      {trigger.kind === 'schedule' &&
        (editing ? (
          <EditSchedule
            companyId={companyId}
            trigger={trigger}
            pending={patch.isPending}
            onSave={(body) => patch.mutate(body)}
          />
        ) : (
          <div className="routine-trigger-body">
            <p>
              <code>{trigger.cronExpression}</code> in {trigger.timezone} · next:{' '}
              {trigger.nextRunAt ? (
                <time dateTime={trigger.nextRunAt} title={fullTime(trigger.nextRunAt)} data-testid="next-run-at">
                  {timeAgo(trigger.nextRunAt)}
                </time>
              ) : (
                <span className="muted">
                  {trigger.enabled
                    ? `none while the routine is ${routineStatuses.label(routine.status).toLowerCase()}`
                    : 'none while disabled'}
                </span>
              )}
            </p>
            <SchedulePreview
              companyId={companyId}
              id={`preview-${trigger.id}`}
              cronExpression={trigger.cronExpression ?? ''}
              timezone={trigger.timezone ?? 'UTC'}
            />
          </div>
        ))}
      {trigger.kind === 'webhook' && (
        <div className="routine-trigger-body">
          <p>
            Signing: {SIGNING_MODES.find((mode) => mode.value === trigger.signingMode)?.label ?? trigger.signingMode}
            {trigger.signingMode === 'codehost_hmac' && ` · replay window ${trigger.replayWindowSec} s`}.{' '}
            <span className="muted">{helpOf(SIGNING_MODES, trigger.signingMode ?? 'bearer')}</span>
          </p>
          <p className="muted">
            The URL and secret were shown when the trigger was created;{' '}
            {trigger.signingMode === 'none'
              ? 'delete and re-create it for a new URL'
              : 'rotate the secret to see the URL again'}
            .
          </p>
        </div>
      )}
      {trigger.kind === 'api' && (
        <p className="routine-trigger-body muted">
          Fired by <code>POST /api/routines/{routine.id}/run</code> with <code>triggerId: {trigger.id}</code>.
        </p>
      )}
      {trigger.lastFiredAt && (
        <p className="muted routine-trigger-body">
          Last fired{' '}
          <time dateTime={trigger.lastFiredAt} title={fullTime(trigger.lastFiredAt)}>
            {timeAgo(trigger.lastFiredAt)}
          </time>
        </p>
      )}
      {failed && (
        <ErrorNotice
          error={failed.error}
          title={
            failed === remove
              ? 'The trigger was not deleted'
              : failed === rotate
                ? 'The secret was not rotated'
                : 'The trigger was not changed'
          }
        />
      )}
    </li>
  );
}

function EditSchedule({
  companyId,
  trigger,
  pending,
  onSave,
}: {
  companyId: string;
  trigger: Trigger;
  pending: boolean;
  onSave: (body: TriggerPatch) => void;
}) {
  const [cronExpression, setCron] = useState(trigger.cronExpression ?? '');
  const [timezone, setTimezone] = useState(trigger.timezone ?? 'UTC');
  const [label, setLabel] = useState(trigger.label ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({ cronExpression: cronExpression.trim(), timezone: timezone.trim() || 'UTC', label: label.trim() || null });
  };
  return (
    <form className="routine-trigger-body" onSubmit={submit} aria-label={`Edit ${trigger.label || 'schedule'}`}>
      <div className="field">
        <label htmlFor={`edit-${trigger.id}-label`}>Label</label>
        <input id={`edit-${trigger.id}-label`} value={label} onChange={(event) => setLabel(event.target.value)} />
      </div>
      <ScheduleFields
        companyId={companyId}
        idPrefix={`edit-${trigger.id}`}
        cronExpression={cronExpression}
        timezone={timezone}
        onCron={setCron}
        onTimezone={setTimezone}
      />
      <button type="submit" className="primary" disabled={pending || !cronExpression.trim()}>
        Save schedule
      </button>
    </form>
  );
}

function AddTrigger({
  companyId,
  routineId,
  onIssued,
}: {
  companyId: string;
  routineId: string;
  onIssued: (issued: Issued) => void;
}) {
  const invalidate = useInvalidateRoutine(companyId, routineId);
  const [kind, setKind] = useState<Trigger['kind']>('schedule');
  const [label, setLabel] = useState('');
  const [cronExpression, setCron] = useState('');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [signingMode, setSigningMode] = useState<SigningMode>('bearer');
  const add = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/routines/{routineId}/triggers', {
          params: { path: { routineId } },
          body: {
            kind,
            ...(label.trim() && { label: label.trim() }),
            ...(kind === 'schedule' && { cronExpression: cronExpression.trim(), timezone: timezone.trim() || 'UTC' }),
            ...(kind === 'webhook' && { signingMode }),
          },
        }),
      ),
    onSuccess: (created) => {
      if (created.webhookUrl) onIssued(created);
      setLabel('');
      setCron('');
    },
    onSettled: invalidate,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!add.isPending) add.mutate();
  };
  return (
    <form className="routine-add-trigger" onSubmit={submit} aria-labelledby="add-trigger-title">
      <h3 id="add-trigger-title">Add a trigger</h3>
      <div className="routine-schedule-fields">
        <div className="field">
          <label htmlFor="trigger-kind">Kind</label>
          <Select
            id="trigger-kind"
            value={kind}
            onChange={setKind}
            options={[
              { value: 'schedule' as const, label: 'Schedule (cron)' },
              { value: 'webhook' as const, label: 'Webhook' },
              { value: 'api' as const, label: 'API' },
            ]}
          />
        </div>
        <div className="field">
          <label htmlFor="trigger-label">Label</label>
          <input
            id="trigger-label"
            value={label}
            maxLength={200}
            placeholder="optional"
            onChange={(event) => setLabel(event.target.value)}
          />
        </div>
      </div>
      {kind === 'schedule' && (
        <ScheduleFields
          companyId={companyId}
          idPrefix="new-trigger"
          cronExpression={cronExpression}
          timezone={timezone}
          onCron={setCron}
          onTimezone={setTimezone}
        />
      )}
      {kind === 'webhook' && (
        <div className="field">
          <label htmlFor="trigger-signing">Signing</label>
          <Select
            id="trigger-signing"
            value={signingMode}
            aria-describedby="trigger-signing-help"
            onChange={setSigningMode}
            options={SIGNING_MODES.map(({ value, label }) => ({ value, label }))}
          />
          <span id="trigger-signing-help" className="hint">
            {helpOf(SIGNING_MODES, signingMode)}
          </span>
        </div>
      )}
      {kind === 'api' && (
        <p className="hint">Fired only through the API (POST /api/routines/{routineId}/run with its trigger id).</p>
      )}
      {add.isError && <ErrorNotice error={add.error} title="The trigger was not added" />}
      <button
        type="submit"
        className="primary"
        disabled={add.isPending || (kind === 'schedule' && !cronExpression.trim())}
      >
        Add trigger
      </button>
    </form>
  );
}

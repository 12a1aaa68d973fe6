// The company's secrets: metadata, version and where each is referenced; create, rotate, rename or
// describe, delete. A value
// lives only in a password field until it is sent, then the field is cleared: the server never
// returns it, and the page never shows it.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, ApiError, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { fullTime, timeAgo } from '../../lib/format';
import { CopyButton } from '../../components/CopyButton';
import { agentsQuery } from '../../queries/agents';
import { secretKeys, secretsQuery, type Secret } from '../../queries/secrets';

export function SecretsPage() {
  const { companyId = '' } = useParams();
  const secrets = useQuery(secretsQuery(companyId));
  const [rotating, setRotating] = useState<Secret | null>(null);
  const [using, setUsing] = useState<Secret | null>(null);
  const [editing, setEditing] = useState<Secret | null>(null);
  const [deleting, setDeleting] = useState<Secret | null>(null);

  return (
    <div className="page">
      <PageHeader title="Secrets">
        <p className="muted">
          API keys and credentials agents receive through their environment. Values are stored encrypted and never shown
          again after entry.
        </p>
      </PageHeader>
      <CreateSecret companyId={companyId} />
      {secrets.isPending ? (
        <Loading label="Loading secrets" />
      ) : secrets.isError ? (
        <ErrorNotice error={secrets.error} title="Secrets could not be loaded" retry={() => secrets.refetch()} />
      ) : secrets.data.length === 0 ? (
        <p className="muted">No secrets yet. Create one above, then reference it in an agent's environment.</p>
      ) : (
        <table className="table secrets-table">
          <caption className="visually-hidden">Secrets, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Version</th>
              <th scope="col">Description</th>
              <th scope="col">Referenced by</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {secrets.data.map((secret) => (
              <tr key={secret.id}>
                <th scope="row" className="mono">
                  {secret.name}
                </th>
                <td>
                  <span className="badge">v{secret.latestVersion}</span>
                </td>
                <td>{secret.description ?? <span className="muted">None</span>}</td>
                <td>
                  <References companyId={companyId} secret={secret} />
                </td>
                <td>
                  <time dateTime={secret.updatedAt} title={fullTime(secret.updatedAt)}>
                    {timeAgo(secret.updatedAt)}
                  </time>
                </td>
                <td className="secrets-actions">
                  <button type="button" onClick={() => setRotating(secret)} aria-label={`Rotate ${secret.name}`}>
                    Rotate
                  </button>
                  <button
                    type="button"
                    onClick={() => setUsing(secret)}
                    aria-label={`Use ${secret.name} in an agent`}
                    title="The binding to put in an agent's env"
                  >
                    Use
                  </button>
                  <button type="button" onClick={() => setEditing(secret)} aria-label={`Edit ${secret.name}`}>
                    Edit
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => setDeleting(secret)}
                    aria-label={`Delete ${secret.name}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rotating && <RotateDialog companyId={companyId} secret={rotating} onClose={() => setRotating(null)} />}
      {using && <UseDialog companyId={companyId} secret={using} onClose={() => setUsing(null)} />}
      {editing && <EditDialog companyId={companyId} secret={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteDialog companyId={companyId} secret={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

function References({ companyId, secret }: { companyId: string; secret: Secret }) {
  const { count, agents } = secret.references;
  if (count === 0) return <span className="muted">Not referenced</span>;
  return (
    <ul className="secret-refs" aria-label={`Where ${secret.name} is referenced`}>
      {agents.map((ref) => (
        <li key={`${ref.agentId}-${ref.envKey}`}>
          <Link to={`/c/${companyId}/agents/${ref.agentId}/configuration`}>{ref.agentName}</Link>{' '}
          <span className="mono">{ref.envKey}</span>
          {ref.version !== 'latest' && <span className="muted"> (pinned to v{ref.version})</span>}
        </li>
      ))}
      {count > agents.length && <li className="muted">and {count - agents.length} more</li>}
    </ul>
  );
}

/** A name another secret of the company has (409): said on the name field, with what to do. */
function takenName(error: unknown, name: string): string | null {
  return error instanceof ApiError && error.status === 409
    ? `A secret named ${name} already exists: choose another name`
    : null;
}

function CreateSecret({ companyId }: { companyId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: async (body: { name: string; value: string; description?: string }) =>
      data(await api.POST('/api/companies/{companyId}/secrets', { params: { path: { companyId } }, body })),
    onSuccess: () => {
      setName('');
      setDescription('');
      return queryClient.invalidateQueries({ queryKey: secretKeys.all(companyId) });
    },
  });
  const taken = create.isError ? takenName(create.error, create.variables?.name ?? name) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), value, ...(description.trim() && { description: description.trim() }) });
    // Sent: the value leaves the page's state at once, whatever the answer (a failure asks for it again).
    setValue('');
  };
  return (
    <form className="card secret-create" onSubmit={submit} aria-labelledby="secret-create-heading">
      <h2 id="secret-create-heading">New secret</h2>
      <div className="secret-create-fields">
        <div className="field">
          <label htmlFor="secret-name">Name</label>
          <input
            id="secret-name"
            className="mono"
            required
            maxLength={200}
            value={name}
            placeholder="OPENAI_API_KEY"
            aria-invalid={taken ? true : undefined}
            aria-describedby={taken ? 'secret-name-error' : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {taken && (
            <span className="field-error" id="secret-name-error">
              {taken}, then enter the value again.
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor="secret-value">Value</label>
          <input
            id="secret-value"
            type="password"
            autoComplete="new-password"
            required
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="secret-description">Description</label>
          <input
            id="secret-description"
            maxLength={10_000}
            value={description}
            placeholder="What it is for"
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
      </div>
      <button type="submit" className="primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create secret'}
      </button>
      {create.isError && !taken && (
        <ErrorNotice error={create.error} title="The secret was not created: enter the value again" />
      )}
      <p role="status" className="muted">
        {create.isSuccess
          ? `${create.data.name} created (version 1). Its value is stored encrypted and will not be shown.`
          : ''}
      </p>
    </form>
  );
}

function RotateDialog({ companyId, secret, onClose }: { companyId: string; secret: Secret; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const rotate = useMutation({
    mutationFn: async (next: string) =>
      data(
        await api.POST('/api/secrets/{secretId}/rotate', {
          params: { path: { secretId: secret.id } },
          body: { value: next },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: secretKeys.all(companyId) });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate(value);
    setValue('');
  };
  const latest = secret.references.agents.filter((ref) => ref.version === 'latest').length;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Rotate ${secret.name}`}
      description={`The new value becomes version ${secret.latestVersion + 1}. References to “latest” use it from their next run; pinned references keep theirs.`}
    >
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="rotate-value">New value</label>
          <input
            id="rotate-value"
            type="password"
            autoComplete="new-password"
            required
            autoFocus
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
          {secret.references.count > 0 && (
            <span className="hint">
              {latest} of the {secret.references.count} listed reference{secret.references.count === 1 ? '' : 's'}{' '}
              follow “latest”.
            </span>
          )}
        </div>
        {rotate.isError && (
          <ErrorNotice error={rotate.error} title="The secret was not rotated: enter the value again" />
        )}
        <DialogActions onCancel={onClose} label="Rotate" busyLabel="Rotating…" busy={rotate.isPending} />
      </form>
    </Dialog>
  );
}

/** The env binding to paste into an agent's configuration, and a way to the agent's configuration tab. */
function UseDialog({ companyId, secret, onClose }: { companyId: string; secret: Secret; onClose: () => void }) {
  const agents = useQuery(agentsQuery(companyId));
  const [agentId, setAgentId] = useState('');
  const snippet = JSON.stringify(
    { [secret.name]: { type: 'secret_ref', secretId: secret.id, version: 'latest' } },
    null,
    2,
  );
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Use ${secret.name} in an agent`}
      description="Add this binding to the agent's adapter settings under env; the agent receives the value as an environment variable when it runs."
    >
      <pre className="secret-snippet mono" aria-label="Environment binding">
        {snippet}
      </pre>
      <CopyButton text={snippet} label="Copy binding" />
      <div className="field secret-agent-pick">
        <label htmlFor="secret-agent">Agent</label>
        {agents.isError ? (
          <ErrorNotice error={agents.error} title="Agents could not be loaded" retry={() => agents.refetch()} />
        ) : (
          <Select
            id="secret-agent"
            value={agentId || null}
            disabled={agents.isPending}
            placeholder={agents.isPending ? 'Loading agents…' : 'Choose an agent'}
            searchPlaceholder="Find an agent…"
            onChange={setAgentId}
            options={(agents.data ?? []).map((agent) => ({
              value: agent.id,
              label: agent.name,
            }))}
          />
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        {agentId ? (
          <Link className="button primary" to={`/c/${companyId}/agents/${agentId}/configuration`}>
            Open its configuration
          </Link>
        ) : (
          <button type="button" className="primary" disabled>
            Open its configuration
          </button>
        )}
      </div>
    </Dialog>
  );
}

/** Name and description (PATCH): the value and its versions stay; references hold the id, not the name. */
function EditDialog({ companyId, secret, onClose }: { companyId: string; secret: Secret; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(secret.name);
  const [description, setDescription] = useState(secret.description ?? '');
  const edit = useMutation({
    mutationFn: async (body: { name: string; description: string | null }) =>
      data(await api.PATCH('/api/secrets/{secretId}', { params: { path: { secretId: secret.id } }, body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: secretKeys.all(companyId) });
      onClose();
    },
  });
  const taken = edit.isError ? takenName(edit.error, edit.variables?.name ?? name) : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    edit.mutate({ name: name.trim(), description: description.trim() || null });
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Edit ${secret.name}`}
      description="Agents reference a secret by its id, so a new name changes no agent's configuration."
    >
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="edit-secret-name">Name</label>
          <input
            id="edit-secret-name"
            className="mono"
            required
            maxLength={200}
            autoFocus
            value={name}
            aria-invalid={taken ? true : undefined}
            aria-describedby={taken ? 'edit-secret-name-error' : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {taken && (
            <span className="field-error" id="edit-secret-name-error">
              {taken}.
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor="edit-secret-description">Description</label>
          <input
            id="edit-secret-description"
            maxLength={10_000}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </div>
        {edit.isError && !taken && <ErrorNotice error={edit.error} title="The secret was not changed" />}
        <DialogActions onCancel={onClose} label="Save" busyLabel="Saving…" busy={edit.isPending} />
      </form>
    </Dialog>
  );
}

/** Deletion is for good (every version); the dialog names who still references the secret. */
function DeleteDialog({ companyId, secret, onClose }: { companyId: string; secret: Secret; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async () =>
      data(await api.DELETE('/api/secrets/{secretId}', { params: { path: { secretId: secret.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: secretKeys.all(companyId) });
      onClose();
    },
  });
  const { count } = secret.references;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${secret.name}?`}
      description={
        secret.latestVersion === 1
          ? 'Its value is deleted for good.'
          : `All ${secret.latestVersion} versions of its value are deleted for good.`
      }
    >
      {count > 0 ? (
        <p className="notice notice-warning">
          {count} agent binding{count === 1 ? '' : 's'} still reference{count === 1 ? 's' : ''} it:{' '}
          {secret.references.agents.map((ref) => `${ref.agentName} (${ref.envKey})`).join(', ')}
          {count > secret.references.agents.length ? ' and more' : ''}. Their runs fail when they resolve it, until the
          binding is changed.
        </p>
      ) : (
        <p className="muted">No agent references it.</p>
      )}
      {remove.isError && <ErrorNotice error={remove.error} title="The secret was not deleted" />}
      <DialogActions
        onCancel={onClose}
        onConfirm={() => remove.mutate()}
        label="Delete for good"
        busyLabel="Deleting…"
        busy={remove.isPending}
        tone="danger"
      />
    </Dialog>
  );
}

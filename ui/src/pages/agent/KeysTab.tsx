// The agent's API keys: the list (revoked ones kept for the audit trail), a new key whose token is
// shown once with a copy button, and revoke behind a confirmation.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { agentApiKeysQuery, type AgentDetail, type AgentKey } from '../../queries/agents';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';

export function KeysTab({ companyId, agent }: { companyId: string; agent: AgentDetail }) {
  const queryClient = useQueryClient();
  const keysQuery = agentApiKeysQuery(companyId, agent.id);
  const keys = useQuery(keysQuery);
  const [name, setName] = useState('');
  const [revoking, setRevoking] = useState<AgentKey | null>(null);
  const create = useMutation({
    mutationFn: async (keyName: string) =>
      data(
        await api.POST('/api/agents/{agentId}/keys', {
          params: { path: { agentId: agent.id } },
          body: { name: keyName },
        }),
      ),
    onSuccess: () => {
      setName('');
      return queryClient.invalidateQueries({ queryKey: keysQuery.queryKey });
    },
  });
  const revoke = useMutation({
    mutationFn: async (keyId: string) =>
      data(await api.DELETE('/api/agents/{agentId}/keys/{keyId}', { params: { path: { agentId: agent.id, keyId } } })),
    onSuccess: () => {
      setRevoking(null);
      return queryClient.invalidateQueries({ queryKey: keysQuery.queryKey });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim() || 'default');
  };

  return (
    <div className="agent-keys">
      <form className="key-create" onSubmit={submit}>
        <div className="field">
          <label htmlFor="key-name">New key name</label>
          <input
            id="key-name"
            value={name}
            maxLength={200}
            placeholder="e.g. laptop"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      {create.isError && <ErrorNotice error={create.error} title="The key was not created" />}
      {create.data && <NewToken name={create.data.name} token={create.data.token} onDone={() => create.reset()} />}

      {keys.isPending && <Loading label="Loading keys" />}
      {keys.isError && (
        <ErrorNotice error={keys.error} retry={() => keys.refetch()} title="The keys could not be loaded" />
      )}
      {keys.data && keys.data.length === 0 && (
        <p className="muted">No keys yet. A key lets the agent's own code call the API as {agent.name}.</p>
      )}
      {keys.data && keys.data.length > 0 && (
        <table className="table">
          <caption className="visually-hidden">API keys of {agent.name}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name}</th>
                <td title={fullTime(key.createdAt)}>{timeAgo(key.createdAt)}</td>
                <td>
                  {key.lastUsedAt ? (
                    <span title={fullTime(key.lastUsedAt)}>{timeAgo(key.lastUsedAt)}</span>
                  ) : (
                    <span className="muted">Never</span>
                  )}
                </td>
                <td>
                  {key.revokedAt ? (
                    <span className="badge badge-danger" title={fullTime(key.revokedAt)}>
                      Revoked
                    </span>
                  ) : (
                    <span className="badge badge-success">Active</span>
                  )}
                </td>
                <td>
                  {!key.revokedAt && (
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Revoke key ${key.name}`}
                      onClick={() => {
                        revoke.reset();
                        setRevoking(key);
                      }}
                    >
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke the key “${revoking?.name ?? ''}”?`}
        description="Anything using this key stops authenticating at once. This cannot be undone; create a new key if it is still needed."
      >
        {revoke.isError && <ErrorNotice error={revoke.error} title="The key was not revoked" />}
        <div className="dialog-actions">
          <button type="button" onClick={() => setRevoking(null)}>
            Keep the key
          </button>
          <button
            type="button"
            className="danger"
            disabled={revoke.isPending}
            onClick={() => revoking && revoke.mutate(revoking.id)}
          >
            {revoke.isPending ? 'Revoking…' : 'Revoke key'}
          </button>
        </div>
      </Dialog>
    </div>
  );
}

/** The new token, once: the server keeps only its hash, so this is the only chance to copy it. */
function NewToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  return (
    <section className="notice notice-warning new-token" aria-labelledby="new-token-heading">
      <h3 id="new-token-heading">Key “{name}” created: copy it now</h3>
      <p>You will not see this key again. Boardroom keeps only a hash of it.</p>
      <div className="token-row">
        <label htmlFor="new-token" className="visually-hidden">
          The new key
        </label>
        <input
          id="new-token"
          className="mono"
          readOnly
          value={token}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={token} />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

// Every adapter the registry knows (GET /api/adapters): its source and status, the environment check
// the server ran with the instance config (for a local CLI: binary, version, login), and its actions:
// enable or disable and pin (the override), the instance config, and for an installed package
// reload, reinstall and remove.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { instanceKeys } from '../../api/keys';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { ConfigForm } from '../../components/schema-form/ConfigForm';
import { adapterConfigSchemaQuery, adaptersQuery, type Adapter } from '../../queries/instance';
import { CheckList } from './CheckList';

export function AdapterList() {
  const adapters = useQuery(adaptersQuery());
  if (adapters.isPending) return <Loading label="Checking the adapters (each environment check takes up to 5 s)" />;
  if (adapters.isError)
    return (
      <ErrorNotice error={adapters.error} retry={() => adapters.refetch()} title="The adapters could not be listed" />
    );
  return (
    <div className="adapter-list">
      {adapters.data.map((adapter) => (
        <AdapterCard key={adapter.type} adapter={adapter} />
      ))}
    </div>
  );
}

function useAdaptersChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: instanceKeys.adapters });
}

function AdapterCard({ adapter }: { adapter: Adapter }) {
  const headingId = `adapter-${adapter.type}-heading`;
  const source =
    adapter.source.kind === 'builtin'
      ? 'built in'
      : adapter.source.kind === 'local'
        ? `local path ${adapter.source.localPath}`
        : `npm ${adapter.source.packageName}@${adapter.source.version}`;
  return (
    <article className="card adapter-card" aria-labelledby={headingId}>
      <div className="card-title-row">
        <h3 id={headingId}>
          {adapter.label} <code className="muted">{adapter.type}</code>
        </h3>
        <div className="adapter-badges">
          <span className={`badge ${adapter.builtin ? '' : 'badge-accent'}`}>
            {adapter.builtin ? 'built-in' : 'external'}
          </span>
          <span className={`badge ${adapter.status.enabled ? 'badge-success' : 'badge-warning'}`}>
            {adapter.status.enabled ? 'enabled' : adapter.status.disabled ? 'disabled' : 'not loaded'}
          </span>
          {adapter.status.pinnedVersion && <span className="badge">pinned {adapter.status.pinnedVersion}</span>}
        </div>
      </div>
      <p className="muted">Source: {source}</p>
      {adapter.loadError && (
        <p className="notice notice-error" role="alert">
          Failed to load: {adapter.loadError}
        </p>
      )}
      <div className="adapter-environment">
        <strong>Environment: {adapter.environment.ok ? 'ready' : 'not ready'}</strong>
        <CheckList checks={adapter.environment.checks} label={`${adapter.type} environment checks`} />
      </div>
      <AdapterActions adapter={adapter} />
    </article>
  );
}

function AdapterActions({ adapter }: { adapter: Adapter }) {
  const changed = useAdaptersChanged();
  const [configOpen, setConfigOpen] = useState(false);
  const override = useMutation({
    mutationFn: async (body: { disabled?: boolean; pinnedVersion?: string | null }) =>
      data(await api.PATCH('/api/adapters/{type}/override', { params: { path: { type: adapter.type } }, body })),
    onSuccess: changed,
  });
  const reload = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/adapters/{type}/reload', { params: { path: { type: adapter.type } } })),
    onSuccess: changed,
  });
  const reinstall = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/adapters/{type}/reinstall', { params: { path: { type: adapter.type } } })),
    onSuccess: changed,
  });
  const name = adapter.type;
  return (
    <>
      <div className="adapter-actions" role="group" aria-label={`${name} actions`}>
        <button
          type="button"
          disabled={override.isPending}
          onClick={() => override.mutate({ disabled: !adapter.status.disabled })}
        >
          {adapter.status.disabled ? `Enable ${name}` : `Disable ${name}`}
        </button>
        <button type="button" aria-expanded={configOpen} onClick={() => setConfigOpen(!configOpen)}>
          {configOpen ? 'Hide config' : 'Configure'}
        </button>
        {!adapter.builtin && (
          <>
            <button type="button" disabled={reload.isPending} onClick={() => reload.mutate()}>
              {reload.isPending ? 'Reloading…' : 'Reload'}
            </button>
            <button type="button" disabled={reinstall.isPending} onClick={() => reinstall.mutate()}>
              {reinstall.isPending ? 'Reinstalling…' : 'Reinstall'}
            </button>
            <RemoveAdapterButton adapter={adapter} />
          </>
        )}
      </div>
      {override.isError && <ErrorNotice error={override.error} title={`The override of ${name} was not saved`} />}
      {reload.isError && <ErrorNotice error={reload.error} title={`${name} was not reloaded`} />}
      {reinstall.isError && <ErrorNotice error={reinstall.error} title={`${name} was not reinstalled`} />}
      {reload.isSuccess && (
        <p role="status" className="notice">
          Reloaded.
        </p>
      )}
      {reinstall.isSuccess && (
        <p role="status" className="notice">
          Reinstalled.
        </p>
      )}
      {!adapter.builtin && adapter.source.kind === 'npm' && (
        <PinForm adapter={adapter} save={(pinnedVersion) => override.mutate({ pinnedVersion })} />
      )}
      {configOpen && <AdapterConfig adapter={adapter} />}
    </>
  );
}

/** The version reinstall fetches (npm packages only): empty unpins. */
function PinForm({ adapter, save }: { adapter: Adapter; save: (pinnedVersion: string | null) => void }) {
  const [pin, setPin] = useState(adapter.status.pinnedVersion ?? '');
  const id = `pin-${adapter.type}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(pin.trim() === '' ? null : pin.trim());
  };
  return (
    <form className="pin-form" onSubmit={submit}>
      <label htmlFor={id}>Pinned version</label>
      <input
        id={id}
        type="text"
        className="mono"
        placeholder="not pinned"
        value={pin}
        onChange={(event) => setPin(event.target.value)}
      />
      <button type="submit">Save pin</button>
    </form>
  );
}

function AdapterConfig({ adapter }: { adapter: Adapter }) {
  const queryClient = useQueryClient();
  const schema = useQuery(adapterConfigSchemaQuery(adapter.type));
  if (schema.isPending) return <Loading label={`Loading the settings of ${adapter.type}`} />;
  if (schema.isError)
    return (
      <ErrorNotice
        error={schema.error}
        retry={() => schema.refetch()}
        title={`The settings of ${adapter.type} could not be loaded`}
      />
    );
  return (
    <ConfigForm
      title="Instance config"
      description={`Defaults of this server for ${adapter.type}, passed to its environment check. Sensitive values show as [redacted]; leaving one so keeps it.`}
      schema={schema.data}
      value={adapter.config}
      path="/config"
      withOtherKeys
      save={async (config) => {
        const saved = data(
          await api.PATCH('/api/adapters/{type}', { params: { path: { type: adapter.type } }, body: { config } }),
        );
        await queryClient.invalidateQueries({ queryKey: instanceKeys.adapters, exact: true });
        return saved.config;
      }}
    />
  );
}

function RemoveAdapterButton({ adapter }: { adapter: Adapter }) {
  const [open, setOpen] = useState(false);
  const changed = useAdaptersChanged();
  const remove = useMutation({
    mutationFn: async () =>
      data(await api.DELETE('/api/adapters/{type}', { params: { path: { type: adapter.type } } })),
    // The dialog closes once the list no longer shows the adapter.
    onSuccess: async () => {
      await changed();
      setOpen(false);
    },
  });
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Remove…
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => (setOpen(next), remove.reset())}
        title={`Remove ${adapter.type}?`}
        description="Its files and record are removed; runs of agents of this type fail until it is installed again."
      >
        {remove.isError && <ErrorNotice error={remove.error} title={`${adapter.type} was not removed`} />}
        <DialogActions
          onCancel={() => setOpen(false)}
          onConfirm={() => remove.mutate()}
          label="Remove adapter"
          busyLabel="Removing…"
          busy={remove.isPending}
          tone="danger"
        />
      </Dialog>
    </>
  );
}

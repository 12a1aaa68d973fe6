// The instance's plugins: what is installed (version, status in words, last error, what each asks
// for), the examples that ship with Boardroom (one click to install), and installing from a package
// name or a folder on the server. Only the instance owner changes anything here; everyone else reads.
// Installing makes a plugin available, never running: each company's board still turns it on and
// consents, so what it asks for is shown as soon as it is installed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Puzzle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { EmptyState } from '../../components/display/EmptyState';
import { StatusPill } from '../../components/display/StatusPill';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { CapabilityList } from '../../components/plugins/CapabilityList';
import { Banner } from '../../components/ui/Banner';
import { Button, ButtonLink } from '../../components/ui/Button';
import { pluginStatuses } from '../../lib/plugin-words';
import { timeAgo, fullTime } from '../../lib/format';
import { meQuery } from '../../queries/instance';
import {
  companyPluginKeys,
  pluginExamplesQuery,
  pluginRegistryKeys,
  pluginsQuery,
  type Plugin,
} from '../../queries/plugins';

type InstallBody = { packageName: string; version?: string; isLocalPath?: boolean };

function useRegistryRefresh(companyId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: pluginRegistryKeys.all }),
      queryClient.invalidateQueries({ queryKey: companyPluginKeys.all(companyId) }),
    ]);
}

const manifestOf = (plugin: Plugin) =>
  plugin.manifest as { displayName?: string; description?: string; capabilities?: string[]; net?: string[] };

export function InstancePluginsPage() {
  const { companyId = '' } = useParams();
  const me = useQuery(meQuery());
  const owner = me.data?.via === 'local_trusted' || me.data?.user.isInstanceOwner === true;
  const installed = useQuery(pluginsQuery());
  const refresh = useRegistryRefresh(companyId);
  const [justInstalled, setJustInstalled] = useState<Plugin | null>(null);
  const install = useMutation({
    mutationFn: async (body: InstallBody) => data(await api.POST('/api/plugins/install', { body })),
    onSuccess: async (plugin) => {
      setJustInstalled(plugin);
      await refresh();
    },
  });
  return (
    <div className="page plugins-page">
      <PageHeader
        title="Installed plugins"
        actions={
          <ButtonLink to={`/c/${companyId}/plugins`} variant="ghost">
            This company's plugins
          </ButtonLink>
        }
      >
        <p className="muted">
          {owner
            ? 'Plugins available on this instance. Installing one runs nothing: each company turns it on and consents to what it asks for.'
            : 'Plugins available on this instance. Only the instance owner installs, upgrades or removes them.'}
        </p>
      </PageHeader>
      {justInstalled && (
        <Banner tone="success" title={`Installed ${manifestOf(justInstalled).displayName ?? justInstalled.pluginKey}`}>
          <p>
            Version {justInstalled.version}. No company runs it until its board turns it on and allows what it asks for:
          </p>
          <CapabilityList
            capabilities={manifestOf(justInstalled).capabilities ?? []}
            net={manifestOf(justInstalled).net ?? []}
            label={`What ${manifestOf(justInstalled).displayName ?? justInstalled.pluginKey} asks for`}
          />
        </Banner>
      )}
      {owner && <InstallForm install={install} />}
      {install.isError && <ErrorNotice error={install.error} title="The plugin could not be installed" />}
      <Examples owner={owner} install={install} installed={installed.data ?? []} />
      <section aria-labelledby="installed-heading">
        <h2 id="installed-heading">Installed</h2>
        {installed.isPending ? (
          <Loading label="Loading installed plugins" />
        ) : installed.isError ? (
          <ErrorNotice error={installed.error} title="Plugins could not be loaded" retry={() => installed.refetch()} />
        ) : installed.data.length === 0 ? (
          <EmptyState icon={Puzzle} title="No plugins installed">
            {owner
              ? 'Install one of the examples above, or a package by name or folder.'
              : 'The instance owner has not installed any plugin yet.'}
          </EmptyState>
        ) : (
          <ul className="plugin-cards" aria-label="Installed plugins">
            {installed.data.map((plugin) => (
              <li key={plugin.id}>
                <InstalledPlugin plugin={plugin} owner={owner} companyId={companyId} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

type InstallMutation = ReturnType<typeof useMutation<Plugin, Error, InstallBody>>;

function InstallForm({ install }: { install: InstallMutation }) {
  const [source, setSource] = useState('');
  const [version, setVersion] = useState('');
  const [isLocalPath, setIsLocalPath] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    install.mutate({
      packageName: source.trim(),
      ...(version.trim() && !isLocalPath && { version: version.trim() }),
      ...(isLocalPath && { isLocalPath: true }),
    });
  };
  return (
    <form className="card plugin-install" aria-labelledby="plugin-install-heading" onSubmit={submit}>
      <h2 id="plugin-install-heading">Install a plugin</h2>
      <div className="plugin-install-fields">
        <div className="field">
          <label htmlFor="plugin-source">{isLocalPath ? 'Folder on the server' : 'npm package'}</label>
          <input
            id="plugin-source"
            className="mono"
            required
            maxLength={1000}
            value={source}
            placeholder={isLocalPath ? '/srv/plugins/my-plugin' : '@acme/boardroom-plugin'}
            onChange={(event) => setSource(event.target.value)}
          />
        </div>
        {!isLocalPath && (
          <div className="field">
            <label htmlFor="plugin-version">Version (optional)</label>
            <input
              id="plugin-version"
              className="mono"
              maxLength={100}
              value={version}
              placeholder="latest"
              onChange={(event) => setVersion(event.target.value)}
            />
          </div>
        )}
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={isLocalPath} onChange={(event) => setIsLocalPath(event.target.checked)} />
        It is a folder on the server (an absolute path)
      </label>
      <p className="muted">
        No install script runs. The manifest is checked, and every file is stored in the database.
      </p>
      <div>
        <Button type="submit" variant="primary" icon={Download} loading={install.isPending}>
          {install.isPending ? 'Installing…' : 'Install'}
        </Button>
      </div>
    </form>
  );
}

function Examples({ owner, install, installed }: { owner: boolean; install: InstallMutation; installed: Plugin[] }) {
  const examples = useQuery(pluginExamplesQuery());
  if (examples.isPending) return <Loading label="Loading the examples" />;
  if (examples.isError)
    return (
      <ErrorNotice error={examples.error} title="The examples could not be listed" retry={() => examples.refetch()} />
    );
  if (examples.data.length === 0) return null;
  return (
    <section aria-labelledby="examples-heading">
      <h2 id="examples-heading">Examples</h2>
      <p className="muted">Plugins that ship with Boardroom, to try or to copy from.</p>
      <ul className="plugin-examples">
        {examples.data.map((example) => {
          const present = installed.some((plugin) => plugin.pluginKey === example.id);
          const busy = install.isPending && install.variables?.packageName === example.localPath;
          return (
            <li key={example.id} className="card plugin-example">
              <h3>{example.displayName}</h3>
              <p>{example.description}</p>
              {present ? (
                <StatusPill tone="success">Installed</StatusPill>
              ) : owner ? (
                <Button
                  icon={Download}
                  loading={busy}
                  disabled={install.isPending}
                  onClick={() => install.mutate({ packageName: example.localPath, isLocalPath: true })}
                >
                  {busy ? 'Installing…' : 'Install'}
                  <span className="visually-hidden"> {example.displayName}</span>
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function InstalledPlugin({ plugin, owner, companyId }: { plugin: Plugin; owner: boolean; companyId: string }) {
  const manifest = manifestOf(plugin);
  const name = manifest.displayName ?? plugin.pluginKey;
  const refresh = useRegistryRefresh(companyId);
  const [upgrading, setUpgrading] = useState(false);
  const [removing, setRemoving] = useState(false);
  const setStatus = useMutation({
    mutationFn: async (verb: 'enable' | 'disable') =>
      data(await api.POST(`/api/plugins/{pluginId}/${verb}`, { params: { path: { pluginId: plugin.id } } })),
    onSuccess: refresh,
  });
  const headingId = `installed-${plugin.id}`;
  return (
    <article className="card plugin-card" aria-labelledby={headingId}>
      <div className="plugin-card-head">
        <h3 id={headingId}>{name}</h3>
        <span className="muted">version {plugin.version}</span>
        <StatusPill tone={pluginStatuses.tone(plugin.status)}>{pluginStatuses.label(plugin.status)}</StatusPill>
      </div>
      {manifest.description && <p>{manifest.description}</p>}
      <p className="muted">
        {plugin.source.localPath ? `From the folder ${plugin.source.localPath}` : `From npm: ${plugin.packageName}`}
        {' · '}
        updated{' '}
        <time dateTime={plugin.updatedAt} title={fullTime(plugin.updatedAt)}>
          {timeAgo(plugin.updatedAt)}
        </time>
      </p>
      {plugin.lastError && (
        <Banner tone="danger" title="Last error">
          {plugin.lastError}
        </Banner>
      )}
      <details className="plugin-asks">
        <summary>What it asks for</summary>
        <CapabilityList
          capabilities={manifest.capabilities ?? []}
          net={manifest.net ?? []}
          label={`What ${name} asks for`}
        />
      </details>
      {setStatus.isError && <ErrorNotice error={setStatus.error} title="The status could not be changed" />}
      {owner && (
        <div className="plugin-card-actions">
          {plugin.status === 'ready' ? (
            <Button onClick={() => setStatus.mutate('disable')} loading={setStatus.isPending}>
              Turn off on the instance
            </Button>
          ) : (
            <Button onClick={() => setStatus.mutate('enable')} loading={setStatus.isPending}>
              Make available
            </Button>
          )}
          <Button onClick={() => setUpgrading(true)}>Upgrade…</Button>
          <Button variant="destructive" onClick={() => setRemoving(true)}>
            Uninstall…
          </Button>
        </div>
      )}
      {upgrading && <UpgradeDialog plugin={plugin} name={name} onClose={() => setUpgrading(false)} onDone={refresh} />}
      {removing && <UninstallDialog plugin={plugin} name={name} onClose={() => setRemoving(false)} onDone={refresh} />}
    </article>
  );
}

function UpgradeDialog({
  plugin,
  name,
  onClose,
  onDone,
}: {
  plugin: Plugin;
  name: string;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const [version, setVersion] = useState('');
  const upgrade = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/plugins/{pluginId}/upgrade', {
          params: { path: { pluginId: plugin.id } },
          // Empty: the recorded source fetched again (the folder copied again, or the package at its recorded version).
          body: version.trim() ? { packageName: plugin.packageName, version: version.trim() } : null,
        }),
      ),
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Upgrade ${name}?`}
      description="All or nothing: if the new version fails its checks, this one stays as it is. A company whose consent does not cover what the new version asks for stops running it until its board allows it again."
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          upgrade.mutate();
        }}
      >
        {plugin.source.localPath ? (
          <p>The folder {plugin.source.localPath} is read again.</p>
        ) : (
          <div className="field">
            <label htmlFor="upgrade-version">Version (empty: the recorded one, fetched again)</label>
            <input
              id="upgrade-version"
              className="mono"
              value={version}
              maxLength={100}
              onChange={(event) => setVersion(event.target.value)}
            />
          </div>
        )}
        {upgrade.isError && <ErrorNotice error={upgrade.error} title="The plugin was not upgraded" />}
        <DialogActions onCancel={onClose} label="Upgrade" busyLabel="Upgrading…" busy={upgrade.isPending} />
      </form>
    </Dialog>
  );
}

function UninstallDialog({
  plugin,
  name,
  onClose,
  onDone,
}: {
  plugin: Plugin;
  name: string;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const uninstall = useMutation({
    mutationFn: async () =>
      data(await api.DELETE('/api/plugins/{pluginId}', { params: { path: { pluginId: plugin.id } } })),
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Uninstall ${name}?`}
      description="Its workers stop, and every company's consent, its stored files and its settings are removed. This cannot be undone."
      size="sm"
    >
      {uninstall.isError && <ErrorNotice error={uninstall.error} title="The plugin was not uninstalled" />}
      <DialogActions
        onCancel={onClose}
        onConfirm={() => uninstall.mutate()}
        label="Uninstall"
        busyLabel="Uninstalling…"
        busy={uninstall.isPending}
        tone="danger"
      />
    </Dialog>
  );
}

// A company's plugins: every plugin installed on the instance with whether it is on for this company.
// Turning one on shows what it will be able to do and asks for consent to exactly that list; after an
// upgrade that asks for more, it waits (stopped for this company) until the board allows the new list.
// The pages enabled plugins add to the company are listed first.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Blocks as BlocksIcon, ExternalLink, Puzzle } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { EmptyState } from '../../components/display/EmptyState';
import { StatusPill } from '../../components/display/StatusPill';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { CapabilityList } from '../../components/plugins/CapabilityList';
import { useSlots } from '../../components/plugins/PluginSlots';
import { Banner } from '../../components/ui/Banner';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Icon } from '../../components/ui/Icon';
import { consentStatuses } from '../../lib/plugin-words';
import { companyPluginKeys, companyPluginsQuery, pluginsQuery, type CompanyPlugin } from '../../queries/plugins';

export function CompanyPluginsPage() {
  const { companyId = '' } = useParams();
  const list = useQuery(companyPluginsQuery(companyId));
  const [consenting, setConsenting] = useState<CompanyPlugin | null>(null);
  const pages = useSlots(companyId, (slot) => slot.slot === 'companyPage');
  return (
    <div className="page plugins-page">
      <PageHeader
        title="Plugins"
        actions={
          <ButtonLink to={`/c/${companyId}/plugins/installed`} icon={Puzzle}>
            Installed plugins
          </ButtonLink>
        }
      >
        <p className="muted">
          Plugins are other people's code. One runs for this company only once its board turns it on, and does only what
          the board allowed.
        </p>
      </PageHeader>
      {pages.length > 0 && (
        <section className="card plugin-pages" aria-labelledby="plugin-pages-heading">
          <h2 id="plugin-pages-heading">Plugin pages</h2>
          <ul>
            {pages.map(({ plugin, slot }) => (
              <li key={`${plugin.pluginId}-${slot.key}`}>
                <Link to={`/c/${companyId}/plugins/${plugin.pluginId}/pages/${encodeURIComponent(slot.key)}`}>
                  <Icon icon={slot.kind === 'frame' ? ExternalLink : BlocksIcon} size={14} /> {slot.title}
                </Link>{' '}
                <span className="muted">from {plugin.displayName}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {list.isPending ? (
        <Loading label="Loading plugins" />
      ) : list.isError ? (
        <ErrorNotice error={list.error} title="Plugins could not be loaded" retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState
          icon={Puzzle}
          title="No plugins installed"
          action={<ButtonLink to={`/c/${companyId}/plugins/installed`}>Installed plugins</ButtonLink>}
        >
          The instance owner installs plugins on the Installed plugins page; then this company can turn them on.
        </EmptyState>
      ) : (
        <ul className="plugin-cards" aria-label="Plugins for this company">
          {list.data.map((plugin) => (
            <li key={plugin.pluginId}>
              <CompanyPluginCard companyId={companyId} plugin={plugin} onConsent={() => setConsenting(plugin)} />
            </li>
          ))}
        </ul>
      )}
      {consenting && <ConsentDialog companyId={companyId} plugin={consenting} onClose={() => setConsenting(null)} />}
    </div>
  );
}

function CompanyPluginCard({
  companyId,
  plugin,
  onConsent,
}: {
  companyId: string;
  plugin: CompanyPlugin;
  onConsent: () => void;
}) {
  const queryClient = useQueryClient();
  const disable = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/companies/{companyId}/plugins/{pluginId}/disable', {
          params: { path: { companyId, pluginId: plugin.pluginId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyPluginKeys.all(companyId) }),
  });
  const offOnInstance = plugin.instanceStatus !== 'ready';
  const headingId = `plugin-${plugin.pluginId}`;
  return (
    <article className="card plugin-card" aria-labelledby={headingId}>
      <div className="plugin-card-head">
        <h2 id={headingId}>
          <Link to={`/c/${companyId}/plugins/${plugin.pluginId}`}>{plugin.displayName}</Link>
        </h2>
        <span className="muted">version {plugin.version}</span>
        <StatusPill tone={consentStatuses.tone(plugin.status)}>{consentStatuses.label(plugin.status)}</StatusPill>
      </div>
      <p>{plugin.description}</p>
      {plugin.status === 'upgrade_pending' && (
        <Banner
          tone="warning"
          title="Waiting for your consent"
          action={
            <Button variant="primary" onClick={onConsent} disabled={offOnInstance}>
              Review and allow
            </Button>
          }
        >
          Version {plugin.version} asks for more than this company allowed. It does not run for this company until you
          review what it now asks for and allow it.
        </Banner>
      )}
      {offOnInstance && (
        <p className="muted">
          Turned off on the instance by its owner: it runs for no company until the owner turns it back on.
        </p>
      )}
      {disable.isError && <ErrorNotice error={disable.error} title="The plugin could not be turned off" />}
      <div className="plugin-card-actions">
        {plugin.status === 'disabled' ? (
          <Button variant="primary" onClick={onConsent} disabled={offOnInstance}>
            Turn on…
          </Button>
        ) : (
          <Button onClick={() => disable.mutate()} loading={disable.isPending}>
            {disable.isPending ? 'Turning off…' : 'Turn off'}
          </Button>
        )}
        <ButtonLink to={`/c/${companyId}/plugins/${plugin.pluginId}`} variant="ghost">
          Details
          <span className="visually-hidden"> of {plugin.displayName}</span>
        </ButtonLink>
      </div>
    </article>
  );
}

/** The consent: what the plugin will be able to do for this company, allowed as exactly the manifest's list. */
export function ConsentDialog({
  companyId,
  plugin,
  onClose,
}: {
  companyId: string;
  plugin: CompanyPlugin;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const manifest = useQuery(pluginsQuery()).data?.find((candidate) => candidate.id === plugin.pluginId)?.manifest;
  const net = (manifest?.net ?? []) as string[];
  const added =
    plugin.status === 'upgrade_pending'
      ? plugin.requestedCapabilities.filter((key) => !plugin.capabilities.includes(key))
      : [];
  const enable = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/companies/{companyId}/plugins/{pluginId}/enable', {
          params: { path: { companyId, pluginId: plugin.pluginId } },
          body: { capabilities: plugin.requestedCapabilities },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: companyPluginKeys.all(companyId) });
      onClose();
    },
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Turn on ${plugin.displayName} for this company?`}
      description={`Version ${plugin.version}. For this company it will be able to:`}
    >
      <CapabilityList
        capabilities={plugin.requestedCapabilities}
        net={net}
        added={added}
        label={`What ${plugin.displayName} asks for`}
      />
      <p className="muted">
        Nothing else: never approvals, budgets, secret values, members or other companies. Turning it off withdraws this
        consent.
      </p>
      {enable.isError && <ErrorNotice error={enable.error} title="The plugin could not be turned on" />}
      <DialogActions
        onCancel={onClose}
        onConfirm={() => enable.mutate()}
        label="Allow and turn on"
        busyLabel="Turning on…"
        busy={enable.isPending}
      />
    </Dialog>
  );
}

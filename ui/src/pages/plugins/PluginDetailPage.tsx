// One plugin for this company: its consent and what it may do, its worker's health and recent logs on
// the server that answered, its settings (a form from its config schema, with a test), its jobs and
// their runs, its webhook addresses, and the pages it adds. Settings, jobs and webhooks come from
// routes other parts of issue 27 add: a section whose route the server does not have is left out.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { StatusPill } from '../../components/display/StatusPill';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { PluginCallError } from '../../components/plugins/Blocks';
import { CapabilityList } from '../../components/plugins/CapabilityList';
import { useSlots } from '../../components/plugins/PluginSlots';
import { ConfigForm } from '../../components/schema-form/ConfigForm';
import type { JsonSchema } from '../../components/schema-form/schema-form';
import { TableScroll } from '../../components/TableScroll';
import { Banner } from '../../components/ui/Banner';
import { Button } from '../../components/ui/Button';
import { duration, fullTime, timeAgo } from '../../lib/format';
import {
  consentStatuses,
  jobRunStatuses,
  logLevels,
  logSources,
  sandboxWords,
  webhookSigning,
  workerStatuses,
} from '../../lib/plugin-words';
import {
  companyPluginKeys,
  companyPluginsQuery,
  pluginConfigQuery,
  pluginHealthQuery,
  pluginJobRunsQuery,
  pluginJobsQuery,
  pluginLogsQuery,
  pluginsQuery,
  savePluginConfig,
  testPluginConfig,
  triggerPluginJob,
  type CompanyPlugin,
  type PluginJob,
} from '../../queries/plugins';
import { ConsentDialog } from './CompanyPluginsPage';

export function PluginDetailPage() {
  const { companyId = '', pluginId = '' } = useParams();
  const list = useQuery(companyPluginsQuery(companyId));
  const registry = useQuery(pluginsQuery());
  const [consenting, setConsenting] = useState(false);
  if (list.isPending) return <Loading label="Loading the plugin" />;
  if (list.isError)
    return (
      <div className="page">
        <ErrorNotice error={list.error} title="The plugin could not be loaded" retry={() => list.refetch()} />
      </div>
    );
  const plugin = list.data.find((candidate) => candidate.pluginId === pluginId);
  if (!plugin)
    return (
      <div className="page">
        <PageHeader title="Plugin not found" />
        <p>
          No plugin with this address is installed.{' '}
          <Link to={`/c/${companyId}/plugins`}>See this company's plugins</Link>.
        </p>
      </div>
    );
  const manifest = (registry.data?.find((candidate) => candidate.id === pluginId)?.manifest ?? {}) as {
    net?: string[];
    configSchema?: JsonSchema;
  };
  const on = plugin.status === 'enabled';
  return (
    <div className="page plugin-detail">
      <PageHeader
        title={plugin.displayName}
        actions={
          plugin.status !== 'enabled' && (
            <Button variant="primary" onClick={() => setConsenting(true)} disabled={plugin.instanceStatus !== 'ready'}>
              {plugin.status === 'upgrade_pending' ? 'Review and allow' : 'Turn on…'}
            </Button>
          )
        }
      >
        <p className="muted">
          <Link to={`/c/${companyId}/plugins`}>Plugins</Link> · version {plugin.version} ·{' '}
          <StatusPill tone={consentStatuses.tone(plugin.status)}>{consentStatuses.label(plugin.status)}</StatusPill>
        </p>
        <p>{plugin.description}</p>
      </PageHeader>
      {plugin.status === 'upgrade_pending' && (
        <Banner tone="warning" title="Waiting for your consent">
          This version asks for more than this company allowed, so it does not run here until you review and allow it.
        </Banner>
      )}
      <section className="card" aria-labelledby="plugin-may-heading">
        <h2 id="plugin-may-heading">{on ? 'What this company allowed' : 'What it asks for'}</h2>
        <CapabilityList
          capabilities={on ? plugin.capabilities : plugin.requestedCapabilities}
          net={manifest.net ?? []}
          label={on ? 'What this company allowed' : `What ${plugin.displayName} asks for`}
        />
        {plugin.consentedAt && on && (
          <p className="muted">
            Allowed <time dateTime={plugin.consentedAt}>{timeAgo(plugin.consentedAt)}</time>.
          </p>
        )}
      </section>
      <PluginPages companyId={companyId} pluginId={pluginId} />
      <Health companyId={companyId} pluginId={pluginId} />
      {on && <Settings companyId={companyId} pluginId={pluginId} schema={manifest.configSchema} />}
      {on && <Jobs companyId={companyId} pluginId={pluginId} />}
      {on && <Webhooks plugin={plugin} />}
      <Logs companyId={companyId} pluginId={pluginId} />
      {consenting && <ConsentDialog companyId={companyId} plugin={plugin} onClose={() => setConsenting(false)} />}
    </div>
  );
}

function PluginPages({ companyId, pluginId }: { companyId: string; pluginId: string }) {
  const pages = useSlots(companyId, (slot) => slot.slot === 'companyPage').filter(
    (placed) => placed.plugin.pluginId === pluginId,
  );
  if (pages.length === 0) return null;
  return (
    <section className="card" aria-labelledby="plugin-pages-heading">
      <h2 id="plugin-pages-heading">Its pages</h2>
      <ul>
        {pages.map(({ slot }) => (
          <li key={slot.key}>
            <Link to={`/c/${companyId}/plugins/${pluginId}/pages/${encodeURIComponent(slot.key)}`}>{slot.title}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Health({ companyId, pluginId }: { companyId: string; pluginId: string }) {
  const health = useQuery(pluginHealthQuery(pluginId));
  const mine = health.data?.find((entry) => entry.companyId === companyId);
  return (
    <section className="card" aria-labelledby="plugin-health-heading">
      <h2 id="plugin-health-heading">Health</h2>
      {health.isPending ? (
        <Loading label="Loading health" />
      ) : health.isError ? (
        <ErrorNotice error={health.error} title="Health could not be loaded" retry={() => health.refetch()} />
      ) : !mine ? (
        <p className="muted">No worker for this company on this server: it starts when the plugin is on and needed.</p>
      ) : (
        <>
          <dl className="plugin-key-values">
            <div>
              <dt>Worker</dt>
              <dd>
                <StatusPill tone={workerStatuses.tone(mine.status)}>{workerStatuses.label(mine.status)}</StatusPill>
              </dd>
            </div>
            <div>
              <dt>Up for</dt>
              <dd>{mine.uptimeMs === null ? 'Not running' : duration(mine.uptimeMs)}</dd>
            </div>
            <div>
              <dt>Restarts after crashes</dt>
              <dd>{mine.restarts}</dd>
            </div>
            <div>
              <dt>Confinement</dt>
              <dd>
                <StatusPill tone={sandboxWords.tone(mine.sandbox)}>{sandboxWords.label(mine.sandbox)}</StatusPill>
              </dd>
            </div>
          </dl>
          {mine.lastError && (
            <Banner tone="danger" title="Last error">
              {mine.lastError}
            </Banner>
          )}
        </>
      )}
    </section>
  );
}

function Logs({ companyId, pluginId }: { companyId: string; pluginId: string }) {
  const logs = useQuery(pluginLogsQuery(pluginId));
  const lines = (logs.data ?? []).filter((line) => line.companyId === companyId).slice(-100);
  return (
    <section className="card" aria-labelledby="plugin-logs-heading">
      <h2 id="plugin-logs-heading">Recent logs</h2>
      {logs.isPending ? (
        <Loading label="Loading logs" />
      ) : logs.isError ? (
        <ErrorNotice error={logs.error} title="Logs could not be loaded" retry={() => logs.refetch()} />
      ) : lines.length === 0 ? (
        <p className="muted">Nothing logged for this company on this server yet.</p>
      ) : (
        <ol className="plugin-logs" aria-label="Log lines, oldest first">
          {lines.map((line, index) => (
            <li key={`${line.at}-${index}`}>
              <time dateTime={line.at} title={fullTime(line.at)} className="muted">
                {new Date(line.at).toLocaleTimeString()}
              </time>
              <StatusPill tone={logLevels.tone(line.level)}>{logLevels.label(line.level)}</StatusPill>
              <span className="muted">{logSources.label(line.source)}</span>
              <span className="plugin-log-message">{line.message}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Settings({ companyId, pluginId, schema }: { companyId: string; pluginId: string; schema?: JsonSchema }) {
  const config = useQuery(pluginConfigQuery(companyId, pluginId));
  const queryClient = useQueryClient();
  const [tested, setTested] = useState<{ ok: boolean; errors?: string[] } | null>(null);
  const test = useMutation({
    mutationFn: (value: Record<string, unknown>) => testPluginConfig(companyId, pluginId, value),
    onSuccess: setTested,
  });
  // No such route on this server, or a plugin without settings: nothing to show.
  if (config.data === null || !schema?.properties || Object.keys(schema.properties).length === 0) return null;
  if (config.isPending) return <Loading label="Loading settings" />;
  if (config.isError)
    return <ErrorNotice error={config.error} title="Settings could not be loaded" retry={() => config.refetch()} />;
  const answer = config.data as { config?: Record<string, unknown> };
  const value = answer.config ?? {};
  return (
    <div className="plugin-settings">
      <ConfigForm
        title="Settings"
        description="A secret is chosen by reference: the plugin never sees its value."
        schema={schema}
        value={value}
        path="/config"
        withOtherKeys={false}
        save={async (next) => {
          const saved = (await savePluginConfig(companyId, pluginId, next)) as { config?: Record<string, unknown> };
          await queryClient.invalidateQueries({ queryKey: companyPluginKeys.config(companyId, pluginId) });
          return saved.config ?? next;
        }}
      />
      <div className="plugin-settings-test">
        <Button onClick={() => test.mutate(value)} loading={test.isPending}>
          {test.isPending ? 'Testing…' : 'Test the saved settings'}
        </Button>
        {test.isError && <PluginCallError error={test.error} title="The settings could not be tested" />}
        {tested &&
          (tested.ok ? (
            <Banner tone="success" title="The plugin accepts these settings" />
          ) : (
            <Banner tone="warning" title="The plugin does not accept these settings">
              <ul>
                {(tested.errors ?? []).map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </ul>
            </Banner>
          ))}
      </div>
    </div>
  );
}

function Jobs({ companyId, pluginId }: { companyId: string; pluginId: string }) {
  const jobs = useQuery(pluginJobsQuery(companyId, pluginId));
  if (jobs.data === null) return null;
  return (
    <section className="card" aria-labelledby="plugin-jobs-heading">
      <h2 id="plugin-jobs-heading">Jobs</h2>
      {jobs.isPending ? (
        <Loading label="Loading jobs" />
      ) : jobs.isError ? (
        <ErrorNotice error={jobs.error} title="Jobs could not be loaded" retry={() => jobs.refetch()} />
      ) : jobs.data.length === 0 ? (
        <p className="muted">This plugin has no scheduled jobs.</p>
      ) : (
        jobs.data.map((job) => <Job key={job.key} companyId={companyId} pluginId={pluginId} job={job} />)
      )}
    </section>
  );
}

function Job({ companyId, pluginId, job }: { companyId: string; pluginId: string; job: PluginJob }) {
  const runs = useQuery(pluginJobRunsQuery(companyId, pluginId, job.key));
  const queryClient = useQueryClient();
  const trigger = useMutation({
    mutationFn: () => triggerPluginJob(companyId, pluginId, job.key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyPluginKeys.jobs(companyId, pluginId) }),
  });
  return (
    <div className="plugin-job">
      <div className="plugin-card-head">
        <h3 className="mono">{job.key}</h3>
        {job.cron && (
          <span className="muted">
            schedule <span className="mono">{job.cron}</span> ({job.timezone ?? 'UTC'})
          </span>
        )}
        {job.nextFireAt && (
          <span className="muted">
            next <time dateTime={job.nextFireAt}>{timeAgo(job.nextFireAt)}</time>
          </span>
        )}
        <Button size="sm" icon={Play} onClick={() => trigger.mutate()} loading={trigger.isPending}>
          Run now<span className="visually-hidden"> {job.key}</span>
        </Button>
      </div>
      {trigger.isError && <PluginCallError error={trigger.error} title="The job could not be started" />}
      {runs.data && runs.data.length > 0 ? (
        <TableScroll label={`Runs of ${job.key}`}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">How</th>
                <th scope="col">Due</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.slice(0, 10).map((run) => (
                <tr key={run.id}>
                  <td>
                    <StatusPill tone={jobRunStatuses.tone(run.status)}>{jobRunStatuses.label(run.status)}</StatusPill>
                  </td>
                  <td>{run.trigger === 'manual' ? 'Run by hand' : 'On schedule'}</td>
                  <td>{run.fireAt ? <time dateTime={run.fireAt}>{timeAgo(run.fireAt)}</time> : '–'}</td>
                  <td>{run.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : runs.isError && !(runs.error instanceof ApiError && runs.error.status === 404) ? (
        <ErrorNotice error={runs.error} title="Runs could not be loaded" />
      ) : (
        <p className="muted">No runs yet.</p>
      )}
    </div>
  );
}

function Webhooks({ plugin }: { plugin: CompanyPlugin }) {
  if (!plugin.webhooks || plugin.webhooks.length === 0) return null;
  return (
    <section className="card" aria-labelledby="plugin-webhooks-heading">
      <h2 id="plugin-webhooks-heading">Webhook addresses</h2>
      <p className="muted">Each address is this company's own: a delivery to it reaches this company's worker only.</p>
      <ul className="plugin-webhooks">
        {plugin.webhooks.map((hook) => (
          <li key={hook.key}>
            <span className="mono">{hook.key}</span>
            {hook.signing && (
              <StatusPill tone={webhookSigning.tone(hook.signing)}>{webhookSigning.label(hook.signing)}</StatusPill>
            )}
            {/* An address to copy into the sender, not to read: a read-only field that selects whole. */}
            <input
              className="plugin-webhook-url mono"
              readOnly
              value={hook.url}
              aria-label={`Address of ${hook.key}`}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={hook.url} label={`Copy the address of ${hook.key}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}

// The agent's configuration: the adapter's settings as a form generated from the adapter's config
// schema (GET /api/adapters/{type}/config-schema), and the runtime settings the engine reads
// (heartbeat, run limits). Each saves with PATCH /api/agents/{agentId}.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { agentKeys, type AgentDetail } from '../../queries/agents';
import { adapterConfigSchemaQuery } from '../../queries/instance';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { adapterLabel } from '../../components/runs/adapter-label';
import { ConfigForm } from '../../components/schema-form/ConfigForm';
import type { JsonSchema } from '../../components/schema-form/schema-form';

// The runtime settings of the agent PATCH schema (modules/agents/schemas.ts runtimeConfig); the
// server checks the bounds and answers 400 naming the field.
const RUNTIME_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    heartbeat: {
      type: 'object',
      title: 'Heartbeat',
      properties: {
        enabled: { type: 'boolean', title: 'Timer wakeups', description: 'Wake the agent on a timer.' },
        intervalSec: {
          type: 'integer',
          title: 'Interval (seconds)',
          description: 'Seconds between timer wakeups, 1 to 2678400 (31 days).',
          default: 3600,
        },
        skipWhenIdle: {
          type: 'boolean',
          title: 'Skip when idle',
          description: 'Skip a timer wake when nothing changed for the agent since its last run.',
          default: true,
        },
      },
    },
    maxConcurrentRuns: {
      type: 'integer',
      title: 'Max concurrent runs',
      description: 'Live runs at once, 1 to 50; further wakes wait.',
      default: 1,
    },
    maxRunsPerHour: {
      type: 'integer',
      title: 'Max runs per hour',
      description: 'The wake budget; further wakes are skipped until the hour frees a slot.',
      default: 30,
    },
  },
};

export function ConfigTab({ companyId, agent }: { companyId: string; agent: AgentDetail }) {
  const queryClient = useQueryClient();
  const schema = useQuery(adapterConfigSchemaQuery(agent.adapterType));

  const patch = async (
    body:
      | { adapterConfig: Record<string, unknown>; replaceAdapterConfig: true }
      | { runtimeConfig: Record<string, unknown> },
  ) => {
    const saved = data(await api.PATCH('/api/agents/{agentId}', { params: { path: { agentId: agent.id } }, body }));
    await queryClient.invalidateQueries({ queryKey: agentKeys.detail(companyId, agent.id) });
    return saved;
  };

  if (agent.configRedacted) return <p className="notice">The configuration of {agent.name} is hidden from you.</p>;
  return (
    <div className="config-forms">
      {schema.isPending && <Loading label="Loading the adapter's settings" />}
      {schema.isError && (
        <ErrorNotice
          error={schema.error}
          retry={() => schema.refetch()}
          title={`The settings of the ${adapterLabel(agent.adapterType)} adapter could not be loaded`}
        />
      )}
      {schema.data && (
        <ConfigForm
          key={`adapter-${agent.id}-${agent.adapterType}`}
          title="Adapter settings"
          description={`How the ${adapterLabel(agent.adapterType)} adapter runs ${agent.name}.`}
          schema={schema.data}
          value={agent.adapterConfig}
          path="/adapterConfig"
          withOtherKeys
          save={async (adapterConfig) => (await patch({ adapterConfig, replaceAdapterConfig: true })).adapterConfig}
        />
      )}
      <ConfigForm
        key={`runtime-${agent.id}`}
        title="Runtime settings"
        description="When the engine wakes the agent and how many runs it may have. A blank field keeps its current value."
        schema={RUNTIME_SCHEMA}
        value={agent.runtimeConfig}
        path="/runtimeConfig"
        withOtherKeys={false}
        save={async (runtimeConfig) => (await patch({ runtimeConfig })).runtimeConfig}
      />
    </div>
  );
}

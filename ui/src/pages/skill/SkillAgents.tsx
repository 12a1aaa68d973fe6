// The agents a skill is attached to, each with its sync state (how its adapter receives skills), and
// attaching or detaching: an agent's selection is set whole (POST /api/agents/{id}/skills/sync), so
// each change reads the agent's current desired skills and adds or removes this one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { agentSkillsQuery, agentsQuery, type AgentSkills } from '../../queries/agents';
import { skillKeys, type SkillDetail } from '../../queries/skills';

const MODE_LABELS: Record<AgentSkills['mode'], string> = {
  persistent: 'Installed in the runtime',
  ephemeral: 'Handed over before each run',
  unsupported: 'Stored only: this adapter does not load skills',
};

export function SkillAgents({ companyId, skill }: { companyId: string; skill: SkillDetail }) {
  const queryClient = useQueryClient();
  const attached = skill.usage.agents;

  /** Sets each agent's selection to its current one with this skill added or removed. */
  const change = useMutation({
    mutationFn: async ({ agentIds, attach }: { agentIds: string[]; attach: boolean }) => {
      for (const agentId of agentIds) {
        // The selection as it is now: another board member may have changed it since it was read.
        const current = await queryClient.fetchQuery({ ...agentSkillsQuery(companyId, agentId), staleTime: 0 });
        const others = current.desiredSkills.filter((key) => key !== skill.key);
        const desiredSkills = attach ? [...others, skill.key] : others;
        const next = data(
          await api.POST('/api/agents/{agentId}/skills/sync', {
            params: { path: { agentId } },
            body: { desiredSkills },
          }),
        );
        queryClient.setQueryData(agentSkillsQuery(companyId, agentId).queryKey, next);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: skillKeys.detail(companyId, skill.id), exact: true }),
  });

  return (
    <section className="skill-section" aria-labelledby="skill-agents-heading">
      <h2 id="skill-agents-heading">Agents</h2>
      {attached.length === 0 ? (
        <p className="muted">Not attached to any agent.</p>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Agents with {skill.name} attached</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Status</th>
              <th scope="col">Sync</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {attached.map((agent) => {
              return (
                <tr key={agent.id}>
                  <th scope="row">
                    <Link to={`/c/${companyId}/agents/${agent.id}`}>{agent.name}</Link>
                  </th>
                  <td>
                    <AgentStatusBadge status={agent.status as Parameters<typeof AgentStatusBadge>[0]['status']} />
                  </td>
                  <td>
                    <SyncState companyId={companyId} agentId={agent.id} skillKey={skill.key} />
                  </td>
                  <td>
                    {!skill.required && (
                      <button
                        type="button"
                        onClick={() => change.mutate({ agentIds: [agent.id], attach: false })}
                        disabled={change.isPending}
                        aria-label={`Detach from ${agent.name}`}
                      >
                        Detach
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {change.isError && <ErrorNotice error={change.error} title="The agents' skills were not all changed" />}
      <AttachForm
        companyId={companyId}
        skill={skill}
        busy={change.isPending}
        onAttach={(agentIds) => change.mutate({ agentIds, attach: true })}
      />
    </section>
  );
}

/** One agent's sync state for this skill, from that agent's own skills read. */
function SyncState({ companyId, agentId, skillKey }: { companyId: string; agentId: string; skillKey: string }) {
  const skills = useQuery(agentSkillsQuery(companyId, agentId));
  if (skills.isPending) return <span className="muted">Checking…</span>;
  if (skills.isError) return <ErrorNotice error={skills.error} title="The agent's skills could not be read" />;
  const snapshot = skills.data;
  const entry = snapshot.entries.find((e) => e.key === skillKey);
  return (
    <div>
      <span className={`badge ${snapshot.supported ? 'badge-success' : ''}`}>
        {entry?.state === 'configured' ? 'Configured' : entry ? 'Stored' : 'Not in its selection'}
      </span>{' '}
      <span className="muted">
        {snapshot.adapterType}: {MODE_LABELS[snapshot.mode]}
      </span>
      {snapshot.warnings.length > 0 && (
        <ul className="skill-sync-warnings">
          {snapshot.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function AttachForm({
  companyId,
  skill,
  busy,
  onAttach,
}: {
  companyId: string;
  skill: SkillDetail;
  busy: boolean;
  onAttach: (agentIds: string[]) => void;
}) {
  const agents = useQuery(agentsQuery(companyId));
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const attachedIds = new Set(skill.usage.agents.map((a) => a.id));
  const candidates = (agents.data ?? []).filter((agent) => !attachedIds.has(agent.id) && agent.status !== 'terminated');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAttach([...chosen]);
    setChosen(new Set());
  };
  const toggle = (agentId: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(agentId);
      else next.delete(agentId);
      return next;
    });

  if (agents.isPending) return <Loading label="Loading agents" />;
  if (agents.isError)
    return <ErrorNotice error={agents.error} title="Agents could not be loaded" retry={() => agents.refetch()} />;
  if (candidates.length === 0) return <p className="muted">Every agent has it.</p>;
  return (
    <form className="skill-attach" onSubmit={submit}>
      <fieldset>
        <legend>Attach to agents</legend>
        <ul>
          {candidates.map((agent) => (
            <li key={agent.id}>
              <label>
                <input
                  type="checkbox"
                  checked={chosen.has(agent.id)}
                  onChange={(event) => toggle(agent.id, event.target.checked)}
                />{' '}
                {agent.name}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <button type="submit" className="primary" disabled={busy || chosen.size === 0}>
        {busy ? 'Saving…' : chosen.size > 1 ? `Attach to ${chosen.size} agents` : 'Attach'}
      </button>
    </form>
  );
}

// One project: its goals, its issues (a short list and the issues page filtered to it), its
// workspaces with their runtime services, and its budget.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { goalStatuses, projectStatuses } from '../../lib/statuses';
import { goalsQuery } from '../../queries/goals';
import { projectKeys, projectQuery, type Project } from '../../queries/projects';
import { ProjectBudget } from './ProjectBudget';
import { ProjectIssues } from './ProjectIssues';
import { Workspaces } from './Workspaces';
import { StatusPill } from '../../components/display/StatusPill';
import { EntityPluginTabs } from '../../components/plugins/PluginSlots';

export function ProjectPage() {
  const { companyId = '', projectId = '' } = useParams();
  const project = useQuery(projectQuery(companyId, projectId));

  if (project.isPending) return <Loading label="Loading project" />;
  if (project.isError)
    return (
      <div className="page">
        <PageHeader title="Project" />
        <ErrorNotice error={project.error} title="The project could not be loaded" retry={() => project.refetch()} />
        <Link to={`/c/${companyId}/projects`}>All projects</Link>
      </div>
    );
  const p = project.data;
  return (
    <div className="page">
      <PageHeader title={p.name}>
        <p className="routine-subtitle">
          <Link to={`/c/${companyId}/projects`}>Projects</Link>
          <StatusPill tone={projectStatuses.tone(p.status)}>{projectStatuses.label(p.status)}</StatusPill>
          {p.pauseReason && <span className="badge badge-danger">paused: {p.pauseReason}</span>}
        </p>
      </PageHeader>
      {p.description && <p>{p.description}</p>}
      <div className="project-columns">
        <ProjectGoals companyId={companyId} project={p} />
        <ProjectBudget companyId={companyId} projectId={p.id} />
      </div>
      <ProjectIssues companyId={companyId} projectId={p.id} />
      <Workspaces companyId={companyId} project={p} />
      <EntityPluginTabs companyId={companyId} entity="project" entityId={p.id} />
    </div>
  );
}

function ProjectGoals({ companyId, project }: { companyId: string; project: Project }) {
  const queryClient = useQueryClient();
  const goals = useQuery(goalsQuery(companyId));
  const [adding, setAdding] = useState('');
  const link = useMutation({
    mutationFn: async (goalIds: string[]) =>
      data(
        await api.PATCH('/api/projects/{projectId}', {
          params: { path: { projectId: project.id } },
          body: { goalIds },
        }),
      ),
    onSuccess: () => setAdding(''),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all(companyId) }),
  });
  const unlinked = (goals.data ?? []).filter((goal) => !project.goalIds.includes(goal.id));
  return (
    <section className="card routine-section" aria-labelledby="project-goals">
      <h2 id="project-goals">Goals</h2>
      {project.goals.length === 0 ? (
        <p className="muted">Not linked to any goal.</p>
      ) : (
        <ul className="compact-list">
          {project.goals.map((goal) => (
            <li key={goal.id}>
              <Link to={`/c/${companyId}/goals`}>{goal.title}</Link>{' '}
              <StatusPill tone={goalStatuses.tone(goal.status)}>{goalStatuses.label(goal.status)}</StatusPill>{' '}
              <button
                type="button"
                disabled={link.isPending}
                onClick={() => link.mutate(project.goalIds.filter((id) => id !== goal.id))}
              >
                Unlink<span className="visually-hidden"> {goal.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {unlinked.length > 0 && (
        <div className="field field-inline">
          <label htmlFor="project-link-goal">Link a goal</label>
          <Select
            id="project-link-goal"
            value={adding || null}
            onChange={setAdding}
            placeholder="Choose…"
            searchPlaceholder="Find a goal…"
            options={unlinked.map((goal) => ({ value: goal.id, label: goal.title }))}
          />
          <button
            type="button"
            disabled={!adding || link.isPending}
            onClick={() => link.mutate([...project.goalIds, adding])}
          >
            Link
          </button>
        </div>
      )}
      {goals.isError && (
        <ErrorNotice
          error={goals.error}
          title="The company's goals could not be loaded"
          retry={() => goals.refetch()}
        />
      )}
      {link.isError && <ErrorNotice error={link.error} title="The goals were not changed" />}
    </section>
  );
}

// The company's projects: status, goals and workspaces at a glance; "New project" creates one.
import { Select } from '../../components/ui/Combobox';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { projectStatuses, type ProjectStatus } from '../../lib/statuses';
import { projectKeys, projectsQuery } from '../../queries/projects';
import { projectPath } from './model';
import { StatusPill } from '../../components/display/StatusPill';

export function ProjectsPage() {
  const { companyId = '' } = useParams();
  const [creating, setCreating] = useState(false);
  const projects = useQuery(projectsQuery(companyId));

  return (
    <div className="page">
      <PageHeader
        title="Projects"
        actions={
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New project
          </button>
        }
      >
        <p className="muted">Bodies of work with their goals, issues, workspaces and budget.</p>
      </PageHeader>
      <Dialog open={creating} onOpenChange={setCreating} title="New project">
        {creating && <CreateProjectForm companyId={companyId} onDone={() => setCreating(false)} />}
      </Dialog>
      {projects.isPending ? (
        <Loading label="Loading projects" />
      ) : projects.isError ? (
        <ErrorNotice error={projects.error} title="Projects could not be loaded" retry={() => projects.refetch()} />
      ) : projects.data.length === 0 ? (
        <p className="project-empty">
          No projects yet. A project groups issues towards goals and holds the workspaces agents work in.
        </p>
      ) : (
        <ul className="project-list" aria-label="Projects">
          {projects.data.map((project) => (
            <li key={project.id} className="project-row">
              <span className="project-swatch" style={{ background: project.color }} aria-hidden="true" />
              <Link to={projectPath(companyId, project.id)} className="routine-title">
                {project.name}
              </Link>
              <StatusPill tone={projectStatuses.tone(project.status)}>
                {projectStatuses.label(project.status)}
              </StatusPill>
              <span className="routine-meta">
                {project.goals.length === 0 ? (
                  <span className="muted">no goals</span>
                ) : (
                  project.goals.map((goal) => goal.title).join(', ')
                )}
              </span>
              <span className="routine-meta muted">
                {project.workspaces.length} workspace{project.workspaces.length === 1 ? '' : 's'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CreateProjectForm({ companyId, onDone }: { companyId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [status, setStatus] = useState<ProjectStatus>('backlog');
  const create = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/companies/{companyId}/projects', {
          params: { path: { companyId } },
          body: { name: name.trim(), status, ...(description.trim() && { description }) },
        }),
      ),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all(companyId) });
      onDone();
      void navigate(projectPath(companyId, project.id));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  };
  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor="project-name">Name</label>
        <input
          id="project-name"
          autoFocus
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="project-description">Description</label>
        <textarea
          id="project-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="project-status">Status</label>
        <Select
          id="project-status"
          value={status}
          onChange={setStatus}
          options={projectStatuses.list.map((known) => ({ value: known, label: projectStatuses.label(known) }))}
        />
      </div>
      {create.isError && <ErrorNotice error={create.error} title="The project was not created" />}
      <DialogActions
        onCancel={onDone}
        label="Create project"
        busyLabel="Creating…"
        busy={create.isPending}
        disabled={!name.trim()}
      />
    </form>
  );
}

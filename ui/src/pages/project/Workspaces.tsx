// The project's workspaces, each with its runtime service: status, start / restart / stop (refusals
// shown with the server's reason) and its output; editing and deleting one; and a form to add one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fullTime, timeAgo } from '../../lib/format';
import { isServiceLive, serviceStatuses, type ServiceStatus } from '../../lib/statuses';
import { projectKeys, runtimeLogsQuery, type Project } from '../../queries/projects';
import { StatusPill } from '../../components/display/StatusPill';

type Workspace = Project['workspaces'][number];
type Action = 'start' | 'stop' | 'restart';

interface Awaited {
  action: Action;
  /** When the server recorded the operation (server clock, like the service's startedAt). */
  since: string;
  until: number;
}

/** Whether the service shows the outcome of the action: running in a process started after it, or stopped. */
function reached(workspace: Workspace, awaited: Awaited): boolean {
  const service = workspace.runtimeService;
  if (awaited.action === 'stop') return !service || service.status === 'stopped';
  return (
    service?.status === 'running' &&
    service.startedAt !== null &&
    new Date(service.startedAt) >= new Date(awaited.since)
  );
}

/** How long the board follows an action's outcome before leaving it to the next visit (the engine converges within about a second). */
const FOLLOW_MS = 30_000;

/**
 * Runtime services change state in the engine without an activity entry, so after an action the
 * workspace is read again each second until it shows the outcome (or FOLLOW_MS pass).
 */
function useFollowOutcome(companyId: string, projectId: string, workspace: Workspace) {
  const queryClient = useQueryClient();
  const [awaited, setAwaited] = useState<Awaited | null>(null);
  const done = !awaited || reached(workspace, awaited);
  useEffect(() => {
    if (!awaited || done) return;
    const timer = setInterval(() => {
      if (Date.now() > awaited.until) setAwaited(null);
      else void queryClient.invalidateQueries({ queryKey: projectKeys.detail(companyId, projectId) });
    }, 1000);
    return () => clearInterval(timer);
  }, [awaited, done, queryClient, companyId, projectId]);
  return {
    follow: (action: Action, since: string) => setAwaited({ action, since, until: Date.now() + FOLLOW_MS }),
    following: !done,
  };
}

export function Workspaces({ companyId, project }: { companyId: string; project: Project }) {
  return (
    <section className="card routine-section" aria-labelledby="project-workspaces">
      <h2 id="project-workspaces">Workspaces</h2>
      {project.workspaces.length === 0 ? (
        <p className="muted">No workspaces: agents have no working directory for this project&apos;s tasks.</p>
      ) : (
        <ul className="routine-triggers" aria-label="Workspaces">
          {project.workspaces.map((workspace) => (
            <WorkspaceItem key={workspace.id} companyId={companyId} projectId={project.id} workspace={workspace} />
          ))}
        </ul>
      )}
      <AddWorkspace companyId={companyId} projectId={project.id} />
    </section>
  );
}

function WorkspaceItem({
  companyId,
  projectId,
  workspace,
}: {
  companyId: string;
  projectId: string;
  workspace: Workspace;
}) {
  const queryClient = useQueryClient();
  const [showLogs, setShowLogs] = useState(false);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const { follow, following } = useFollowOutcome(companyId, projectId, workspace);
  const service = workspace.runtimeService;
  const command = typeof workspace.runtimeConfig?.command === 'string' ? workspace.runtimeConfig.command : null;
  const act = useMutation({
    mutationFn: async (action: Action) =>
      data(
        await api.POST('/api/projects/{projectId}/workspaces/{workspaceId}/runtime-services/{action}', {
          params: { path: { projectId, workspaceId: workspace.id, action } },
        }),
      ),
    onSuccess: (result, action) => follow(action, result.operation.createdAt),
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.detail(companyId, projectId) }),
  });
  const running = isServiceLive(service?.status);
  return (
    <li className="workspace-item" aria-label={`Workspace ${workspace.name}`}>
      <div className="routine-trigger-head">
        <strong>{workspace.name}</strong>
        {workspace.isPrimary && <span className="badge badge-accent">primary</span>}
        <span className="muted">{workspace.sourceType.replace('_', ' ')}</span>
      </div>
      <p className="routine-trigger-body">
        {workspace.cwd && <code>{workspace.cwd}</code>}
        {workspace.repoUrl && (
          <>
            {' '}
            · {workspace.repoUrl}
            {workspace.repoRef && ` @ ${workspace.repoRef}`}
          </>
        )}
      </p>
      <div className="routine-trigger-head">
        <span>
          Runtime service:{' '}
          {service ? (
            <>
              <StatusPill tone={serviceStatuses.tone(service.status)}>
                {serviceStatuses.label(service.status)}
              </StatusPill>
              {service.pid !== null && <span className="muted"> pid {service.pid}</span>}
              {service.startedAt && (
                <span className="muted">
                  {' '}
                  · started{' '}
                  <time dateTime={service.startedAt} title={fullTime(service.startedAt)}>
                    {timeAgo(service.startedAt)}
                  </time>
                </span>
              )}
              {service.restarts > 0 && <span className="muted"> · {service.restarts} restarts after crashes</span>}
              {following && <span className="muted"> · applying…</span>}
            </>
          ) : (
            <span className="muted">{workspace.desiredState === 'running' ? 'starting…' : 'not started'}</span>
          )}
        </span>
        <span className="routine-trigger-actions">
          {running ? (
            <>
              <button type="button" disabled={act.isPending} onClick={() => act.mutate('restart')}>
                Restart
              </button>
              <button type="button" disabled={act.isPending} onClick={() => act.mutate('stop')}>
                Stop
              </button>
            </>
          ) : (
            <button type="button" disabled={act.isPending} onClick={() => act.mutate('start')}>
              Start
            </button>
          )}
          <button type="button" aria-expanded={showLogs} onClick={() => setShowLogs(!showLogs)}>
            {showLogs ? 'Hide logs' : 'Logs'}
          </button>
          <button type="button" aria-label={`Edit workspace ${workspace.name}`} onClick={() => setDialog('edit')}>
            Edit
          </button>
          <button
            type="button"
            className="danger"
            aria-label={`Delete workspace ${workspace.name}`}
            onClick={() => setDialog('delete')}
          >
            Delete
          </button>
        </span>
      </div>
      <p className="routine-trigger-body muted">
        {command ? (
          <>
            Command: <code>{command}</code>
          </>
        ) : (
          'No runtime command configured (runtimeConfig.command): start and restart are refused.'
        )}
      </p>
      {service?.lastError && <p className="run-error">Last exit: {service.lastError}</p>}
      {act.isError && <ErrorNotice error={act.error} title="The runtime service was not changed" />}
      {showLogs && (
        <RuntimeLogs companyId={companyId} projectId={projectId} workspaceId={workspace.id} status={service?.status} />
      )}
      {dialog === 'edit' && (
        <EditWorkspace
          companyId={companyId}
          projectId={projectId}
          workspace={workspace}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && (
        <DeleteWorkspace
          companyId={companyId}
          projectId={projectId}
          workspace={workspace}
          onClose={() => setDialog(null)}
        />
      )}
    </li>
  );
}

function RuntimeLogs({
  companyId,
  projectId,
  workspaceId,
  status,
}: {
  companyId: string;
  projectId: string;
  workspaceId: string;
  status?: ServiceStatus;
}) {
  // The newest output is what an operator looks for; a live service's is followed (queries/projects.ts).
  const logs = useQuery(runtimeLogsQuery(companyId, projectId, workspaceId, status));
  if (logs.isPending) return <p className="muted">Loading logs…</p>;
  if (logs.isError)
    return <ErrorNotice error={logs.error} title="The logs could not be loaded" retry={() => logs.refetch()} />;
  return (
    <>
      <pre className="transcript" aria-label="Runtime service output" tabIndex={0}>
        {logs.data.content || 'No output yet.'}
      </pre>
      <p className="muted">
        {logs.data.offset > 0 &&
          `Showing the last ${(logs.data.nextOffset - logs.data.offset).toLocaleString('en')} of ${logs.data.totalChars.toLocaleString('en')} characters written. `}
        <button type="button" onClick={() => logs.refetch()}>
          Refresh logs
        </button>
      </p>
    </>
  );
}

function AddWorkspace({ companyId, projectId }: { companyId: string; projectId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [cwd, setCwd] = useState('');
  const [repoUrl, setRepoUrl] = useState('');
  const [command, setCommand] = useState('');
  const add = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/projects/{projectId}/workspaces', {
          params: { path: { projectId } },
          body: {
            ...(name.trim() && { name: name.trim() }),
            ...(cwd.trim() && { cwd: cwd.trim() }),
            ...(repoUrl.trim() && { repoUrl: repoUrl.trim() }),
            ...(command.trim() && { runtimeConfig: { command: command.trim() } }),
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setCwd('');
      setRepoUrl('');
      setCommand('');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all(companyId) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!add.isPending) add.mutate();
  };
  return (
    <form className="routine-add-trigger" onSubmit={submit} aria-labelledby="add-workspace-title">
      <h3 id="add-workspace-title">Add a workspace</h3>
      <div className="routine-schedule-fields">
        <div className="field">
          <label htmlFor="workspace-name">Name</label>
          <input
            id="workspace-name"
            value={name}
            placeholder="default: the folder's name"
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="workspace-cwd">Local directory</label>
          <input
            id="workspace-cwd"
            value={cwd}
            placeholder="/srv/acme/web"
            onChange={(event) => setCwd(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="workspace-repo">Repository URL</label>
          <input
            id="workspace-repo"
            value={repoUrl}
            placeholder="optional"
            onChange={(event) => setRepoUrl(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="workspace-command">Runtime service command</label>
          <input
            id="workspace-command"
            className="mono"
            value={command}
            placeholder="e.g. npm run dev"
            aria-describedby="workspace-command-hint"
            onChange={(event) => setCommand(event.target.value)}
          />
          <span id="workspace-command-hint" className="hint">
            Optional: a long-running process (dev server, worker) run in the directory; started on demand.
          </span>
        </div>
      </div>
      {add.isError && <ErrorNotice error={add.error} title="The workspace was not added" />}
      <button type="submit" className="primary" disabled={add.isPending || (!cwd.trim() && !repoUrl.trim())}>
        Add workspace
      </button>
    </form>
  );
}

/** The fields a person sets here (PATCH: the ones left alone stay); the runtime command keeps its env. */
function EditWorkspace({
  companyId,
  projectId,
  workspace,
  onClose,
}: {
  companyId: string;
  projectId: string;
  workspace: Workspace;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const [cwd, setCwd] = useState(workspace.cwd ?? '');
  const [repoUrl, setRepoUrl] = useState(workspace.repoUrl ?? '');
  const [repoRef, setRepoRef] = useState(workspace.repoRef ?? '');
  const [command, setCommand] = useState(
    typeof workspace.runtimeConfig?.command === 'string' ? workspace.runtimeConfig.command : '',
  );
  const [isPrimary, setPrimary] = useState(workspace.isPrimary);
  const save = useMutation({
    mutationFn: async () =>
      data(
        await api.PATCH('/api/projects/{projectId}/workspaces/{workspaceId}', {
          params: { path: { projectId, workspaceId: workspace.id } },
          body: {
            name: name.trim(),
            cwd: cwd.trim() || null,
            repoUrl: repoUrl.trim() || null,
            repoRef: repoRef.trim() || null,
            runtimeConfig: command.trim() ? { ...workspace.runtimeConfig, command: command.trim() } : null,
            isPrimary,
          },
        }),
      ),
    onSuccess: onClose,
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all(companyId) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Edit workspace ${workspace.name}`}
      description="A new directory or command applies to the next start of its runtime service and the next runs."
    >
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="edit-workspace-name">Name</label>
          <input
            id="edit-workspace-name"
            required
            maxLength={200}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="edit-workspace-cwd">Local directory</label>
          <input
            id="edit-workspace-cwd"
            maxLength={4096}
            value={cwd}
            onChange={(event) => setCwd(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="edit-workspace-repo">Repository URL</label>
          <input
            id="edit-workspace-repo"
            maxLength={2048}
            value={repoUrl}
            onChange={(event) => setRepoUrl(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="edit-workspace-ref">Branch, tag or commit</label>
          <input
            id="edit-workspace-ref"
            maxLength={255}
            value={repoRef}
            onChange={(event) => setRepoRef(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="edit-workspace-command">Runtime service command</label>
          <input
            id="edit-workspace-command"
            className="mono"
            value={command}
            onChange={(event) => setCommand(event.target.value)}
          />
        </div>
        <label className="checkbox-field">
          <input type="checkbox" checked={isPrimary} onChange={(event) => setPrimary(event.target.checked)} /> Primary
          workspace (where the project&apos;s runs work by default)
        </label>
        {save.isError && <ErrorNotice error={save.error} title="The workspace was not changed" />}
        <DialogActions onCancel={onClose} label="Save" busyLabel="Saving…" busy={save.isPending} />
      </form>
    </Dialog>
  );
}

function DeleteWorkspace({
  companyId,
  projectId,
  workspace,
  onClose,
}: {
  companyId: string;
  projectId: string;
  workspace: Workspace;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async () =>
      data(
        await api.DELETE('/api/projects/{projectId}/workspaces/{workspaceId}', {
          params: { path: { projectId, workspaceId: workspace.id } },
        }),
      ),
    onSuccess: onClose,
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectKeys.all(companyId) }),
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Delete workspace ${workspace.name}?`}>
      <p>
        The workspace leaves the project; its directory and repository are not touched.
        {workspace.runtimeService && ' Its runtime service is stopped.'}
        {workspace.isPrimary && ' It is the primary workspace: the oldest remaining one becomes primary.'}
      </p>
      {remove.isError && <ErrorNotice error={remove.error} title="The workspace was not deleted" />}
      <DialogActions
        onCancel={onClose}
        onConfirm={() => remove.mutate()}
        label="Delete workspace"
        busyLabel="Deleting…"
        busy={remove.isPending}
        tone="danger"
      />
    </Dialog>
  );
}

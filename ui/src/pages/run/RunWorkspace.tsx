// Where the run worked and what it changed there (the run's `workspace`): the directory, short
// (home as ~, else its last folders; the full path on hover), where it came from, the branch, and
// the diff stat against the commit the run started from ("3 files changed, +12 −4").
import type { RunDetail } from '../../queries/runs';

type Workspace = NonNullable<RunDetail['workspace']>;
type DiffStat = NonNullable<NonNullable<Workspace['git']>['diffStat']>;

const KIND_WORDS: Record<Workspace['kind'], string> = {
  execution_workspace: "The issue's isolated worktree",
  agent_cwd: "The agent's working directory",
  project_workspace: "The project's workspace",
  agent_home: "The agent's own directory",
};

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "/home/jo/src/app" → "~/src/app"; a deep path → "…/repo/sub" (its last two folders that are not ids). */
export function shortDirectory(cwd: string): string {
  const home = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?=\/|$)/.exec(cwd);
  const rooted = home ? `~${cwd.slice(home[0].length)}` : cwd;
  const segments = rooted.split('/').filter(Boolean);
  const named = segments.filter((segment) => !UUID_SEGMENT.test(segment));
  if (named.length === segments.length && segments.length <= 3) return rooted;
  return `…/${named.slice(-2).join('/')}`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "3 files changed, 12 insertions, 4 deletions": the diff stat as a screen reader says it. */
export const diffStatWords = (stat: DiffStat): string =>
  stat.filesChanged === 0
    ? 'No changes'
    : `${plural(stat.filesChanged, 'file', 'files')} changed, ${plural(stat.insertions, 'line', 'lines')} added, ${plural(stat.deletions, 'line', 'lines')} removed`;

function Changes({ run, workspace }: { run: RunDetail; workspace: Workspace }) {
  const stat = workspace.git?.diffStat;
  if (!workspace.git) return <>Not a git repository</>;
  if (!stat) return <>{run.finishedAt ? 'Not counted: git did not answer in time' : 'Counted when the run ends'}</>;
  if (stat.filesChanged === 0) return <>No changes</>;
  return (
    <span title={diffStatWords(stat)}>
      {plural(stat.filesChanged, 'file', 'files')} changed,{' '}
      <span className="run-diff-added">
        +{stat.insertions}
        <span className="visually-hidden"> added</span>
      </span>{' '}
      <span className="run-diff-removed">
        −{stat.deletions}
        <span className="visually-hidden"> removed</span>
      </span>
    </span>
  );
}

export function RunWorkspace({ run }: { run: RunDetail }) {
  const workspace = run.workspace;
  if (!workspace)
    return (
      <p className="muted">
        {run.invocationSource === 'checkout'
          ? 'The agent ran this work itself; the board does not know where.'
          : run.status === 'queued'
            ? 'Chosen when the run starts.'
            : 'This run did not reach its workspace.'}
      </p>
    );
  return (
    <dl className="run-workspace">
      <div className="property-row">
        <dt className="property-label">Directory</dt>
        <dd className="mono run-workspace-value" title={workspace.kind === 'agent_home' ? undefined : workspace.cwd}>
          {workspace.kind === 'agent_home' ? 'Under the data directory' : shortDirectory(workspace.cwd)}
        </dd>
      </div>
      <div className="property-row">
        <dt className="property-label">Kind</dt>
        <dd className="run-workspace-value">{KIND_WORDS[workspace.kind]}</dd>
      </div>
      {workspace.git && (
        <div className="property-row">
          <dt className="property-label">Branch</dt>
          <dd className="run-workspace-value">
            {workspace.git.branch ? (
              <span className="mono">{workspace.git.branch}</span>
            ) : (
              `Detached at ${workspace.git.baseCommit.slice(0, 7)}`
            )}
          </dd>
        </div>
      )}
      <div className="property-row">
        <dt className="property-label">Changes</dt>
        <dd className="run-workspace-value">
          <Changes run={run} workspace={workspace} />
        </dd>
      </div>
    </dl>
  );
}

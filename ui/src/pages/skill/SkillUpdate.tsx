// Whether a code-host or catalog skill is behind the ref it tracks, and moving it to the latest
// commit. Other kinds say why they have no updates (the server's reason).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';
import { skillKeys, skillUpdateStatusQuery, type Skill } from '../../queries/skills';
import { shortCommit } from '../skills/skill-labels';

export function SkillUpdate({ companyId, skill }: { companyId: string; skill: Skill }) {
  const queryClient = useQueryClient();
  const path = { companyId, skillId: skill.id };
  const statusQuery = skillUpdateStatusQuery(companyId, skill.id);
  const status = useQuery(statusQuery);
  const install = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/companies/{companyId}/skills/{skillId}/install-update', { params: { path } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: skillKeys.all(companyId) }),
        queryClient.invalidateQueries({ queryKey: statusQuery.queryKey }),
      ]),
  });

  return (
    <section className="skill-section" aria-labelledby="skill-update-heading">
      <h2 id="skill-update-heading">Updates</h2>
      {status.isPending ? (
        <Loading label="Checking for an update" />
      ) : status.isError ? (
        <ErrorNotice
          error={status.error}
          title="The update status could not be checked"
          retry={() => status.refetch()}
        />
      ) : !status.data.supported ? (
        <p className="muted">{status.data.reason ?? 'This skill has no source to update from.'}</p>
      ) : (
        <div className="skill-update">
          <p>
            Tracking <span className="mono">{status.data.trackingRef}</span>, pinned at{' '}
            <span className="mono">{status.data.pinnedCommit ? shortCommit(status.data.pinnedCommit) : 'unknown'}</span>
            .{' '}
            {status.data.updateAvailable ? (
              <span className="badge badge-warning">
                Update available:{' '}
                <span className="mono">{status.data.latestCommit ? shortCommit(status.data.latestCommit) : ''}</span>
              </span>
            ) : (
              <span className="badge badge-success">Up to date</span>
            )}{' '}
            <span className="muted">
              checked{' '}
              <time dateTime={status.data.checkedAt} title={fullTime(status.data.checkedAt)}>
                {timeAgo(status.data.checkedAt)}
              </time>
            </span>
          </p>
          <div className="skill-update-actions">
            <button type="button" onClick={() => status.refetch()} disabled={status.isFetching}>
              {status.isFetching ? 'Checking…' : 'Check again'}
            </button>
            {status.data.updateAvailable && (
              <button type="button" className="primary" onClick={() => install.mutate()} disabled={install.isPending}>
                {install.isPending ? 'Installing…' : 'Install update'}
              </button>
            )}
          </div>
          {install.isError && <ErrorNotice error={install.error} title="The update was not installed" />}
          {install.isSuccess && (
            <p role="status">
              {install.data.status === 'updated'
                ? `Updated from ${shortCommit(install.data.previousCommit)} to ${shortCommit(install.data.commit)}.`
                : 'Already at the latest commit.'}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

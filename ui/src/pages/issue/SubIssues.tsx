// The issue's direct children: listed, created in place, or linked from an existing issue (which
// then gets this issue as parent).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { issueStatuses } from '../../lib/statuses';
import { issueListKeys, SUB_ISSUE_PAGE, subIssuesQuery, type IssueDetail } from '../../queries/issues';
import { IssueSearch } from './IssueSearch';
import { StatusPill } from '../../components/display/StatusPill';

export function SubIssues({ companyId, issue }: { companyId: string; issue: IssueDetail }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const children = useQuery(subIssuesQuery(companyId, issue.id));
  const refresh = () => queryClient.invalidateQueries({ queryKey: issueListKeys.all(companyId) });
  const create = useMutation({
    mutationFn: async (newTitle: string) =>
      data(
        await api.POST('/api/companies/{companyId}/issues', {
          params: { path: { companyId } },
          body: { title: newTitle, parentId: issue.id, status: 'todo' },
        }),
      ),
    onSuccess: () => {
      setTitle('');
      void refresh();
    },
  });
  const link = useMutation({
    mutationFn: async (childId: string) =>
      data(
        await api.PATCH('/api/issues/{issueId}', {
          params: { path: { issueId: childId } },
          body: { parentId: issue.id },
        }),
      ),
    onSuccess: () => void refresh(),
  });
  const list = children.data ?? [];

  return (
    <section className="issue-section" aria-labelledby="sub-issues-heading">
      <h2 id="sub-issues-heading">Sub-issues {list.length > 0 && <span className="count">{list.length}</span>}</h2>
      {children.isError && (
        <ErrorNotice
          error={children.error}
          title="Sub-issues could not be loaded"
          retry={() => void children.refetch()}
        />
      )}
      {children.isSuccess && list.length === 0 && <p className="muted">No sub-issues. Break the work down below.</p>}
      <ul className="plain-list">
        {list.map((child) => (
          <li key={child.id} className="row">
            <StatusPill tone={issueStatuses.tone(child.status)}>{issueStatuses.label(child.status)}</StatusPill>
            <Link to={`/c/${companyId}/issues/${child.identifier}`}>
              <span className="mono">{child.identifier}</span> {child.title}
            </Link>
          </li>
        ))}
      </ul>
      {list.length === SUB_ISSUE_PAGE && (
        <p className="muted">Showing the first {SUB_ISSUE_PAGE}; the issues list filtered by parent has them all.</p>
      )}
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (title.trim()) create.mutate(title.trim());
        }}
      >
        <input
          aria-label="New sub-issue title"
          placeholder="New sub-issue title"
          value={title}
          maxLength={500}
          onChange={(event) => setTitle(event.target.value)}
        />
        <button type="submit" disabled={create.isPending || !title.trim()}>
          {create.isPending ? 'Creating…' : 'Create sub-issue'}
        </button>
      </form>
      {create.isError && <ErrorNotice error={create.error} title="The sub-issue was not created" />}
      <IssueSearch
        companyId={companyId}
        label="Link an existing issue as sub-issue"
        exclude={[issue.id, ...list.map((c) => c.id)]}
        onPick={(picked) => link.mutate(picked.id)}
      />
      {link.isError && <ErrorNotice error={link.error} title="The issue was not linked" />}
    </section>
  );
}

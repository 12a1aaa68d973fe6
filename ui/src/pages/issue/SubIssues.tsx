// The issue's direct children: listed, created in place, or linked from an existing issue (which
// then gets this issue as parent). With no children and no form open it shows nothing: the page's
// "+ Add sub-issue" opens the form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { issueListKeys, SUB_ISSUE_PAGE, subIssuesQuery, type IssueDetail } from '../../queries/issues';
import { IssueSearch } from './IssueSearch';
import { StatusIcon } from '../../components/display/StatusIcon';
import { Button } from '../../components/ui/Button';

export function SubIssues({
  companyId,
  issue,
  adding,
  onAddingChange,
}: {
  companyId: string;
  issue: IssueDetail;
  adding: boolean;
  onAddingChange: (adding: boolean) => void;
}) {
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
      onAddingChange(false);
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
  if (list.length === 0 && !adding && !children.isError) return null;

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
      <ul className="plain-list sub-issue-list">
        {list.map((child) => (
          <li key={child.id} className="row">
            <StatusIcon kind="issue" status={child.status} size={14} />
            <Link to={`/c/${companyId}/issues/${child.identifier}`}>
              <span className="muted">{child.identifier}</span> {child.title}
            </Link>
          </li>
        ))}
      </ul>
      {list.length === SUB_ISSUE_PAGE && (
        <p className="muted">Showing the first {SUB_ISSUE_PAGE}; the issues list filtered by parent has them all.</p>
      )}
      {adding && (
        <div className="issue-add-form">
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
              autoFocus
              onChange={(event) => setTitle(event.target.value)}
            />
            <Button type="submit" loading={create.isPending} disabled={!title.trim()}>
              {create.isPending ? 'Creating…' : 'Create sub-issue'}
            </Button>
            <Button variant="ghost" onClick={() => onAddingChange(false)}>
              Cancel
            </Button>
          </form>
          {create.isError && <ErrorNotice error={create.error} title="The sub-issue was not created" />}
          <IssueSearch
            companyId={companyId}
            label="Link an existing issue as sub-issue"
            exclude={[issue.id, ...list.map((c) => c.id)]}
            onPick={(picked) => link.mutate(picked.id)}
          />
        </div>
      )}
      {link.isError && <ErrorNotice error={link.error} title="The issue was not linked" />}
    </section>
  );
}

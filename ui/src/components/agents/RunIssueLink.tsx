import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { companyKey } from '../../api/keys';

/** A link to the issue a run works on, named by its identifier once known (cached per issue). */
export function RunIssueLink({ companyId, issueId }: { companyId: string; issueId: string }) {
  const issue = useQuery({
    queryKey: companyKey(companyId, 'issue', issueId, 'brief'),
    queryFn: async () => data(await api.GET('/api/issues/{issueId}', { params: { path: { issueId } } })),
    staleTime: 60_000,
  });
  const label = issue.data ? `${issue.data.identifier ?? ''} ${issue.data.title}`.trim() : 'its issue';
  return (
    <Link to={`/c/${companyId}/issues/${issueId}`} title={issue.data?.title}>
      {label}
    </Link>
  );
}

import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { issueQuery } from '../../queries/issues';

/** A link to the issue a run works on, named by its identifier once known (the issue's one cached read). */
export function RunIssueLink({ companyId, issueId }: { companyId: string; issueId: string }) {
  const issue = useQuery(issueQuery(companyId, issueId));
  const label = issue.data ? `${issue.data.identifier ?? ''} ${issue.data.title}`.trim() : 'its issue';
  return (
    <Link to={`/c/${companyId}/issues/${issueId}`} title={issue.data?.title}>
      {label}
    </Link>
  );
}

// The project's latest issues, and the issues page filtered to the project for the rest.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { projectIssuesQuery } from '../../queries/issues';
import { StatusBadge } from '../issues/StatusBadge';
import { issuePath } from '../issues/model';

const SHORT_LIST = 10;

export function ProjectIssues({ companyId, projectId }: { companyId: string; projectId: string }) {
  const issues = useQuery(projectIssuesQuery(companyId, projectId, SHORT_LIST));
  return (
    <section className="card routine-section" aria-labelledby="project-issues">
      <h2 id="project-issues">Issues</h2>
      {issues.isPending ? (
        <Loading label="Loading issues" />
      ) : issues.isError ? (
        <ErrorNotice
          error={issues.error}
          title="The project's issues could not be loaded"
          retry={() => issues.refetch()}
        />
      ) : issues.data.length === 0 ? (
        <p className="muted">No issues in this project yet.</p>
      ) : (
        <ul className="compact-list">
          {issues.data.map((issue) => (
            <li key={issue.id}>
              <Link to={issuePath(companyId, issue)}>
                {issue.identifier} {issue.title}
              </Link>{' '}
              <StatusBadge status={issue.status} />
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to={`/c/${companyId}/issues?project=${projectId}`}>All issues of this project</Link>
      </p>
    </section>
  );
}

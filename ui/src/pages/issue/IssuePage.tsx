// An issue in full: title and description, the work on it (runs, transcripts, workspace), documents,
// sub-issues, attachments and comments, with the properties beside (below on a narrow screen).
// Everything refreshes from the company's live events; nothing polls.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';
import { issueQuery } from '../../queries/issues';
import { Attachments } from './Attachments';
import { Comments } from './Comments';
import { Documents } from './Documents';
import { InlineDescription } from './InlineDescription';
import { InlineTitle } from './InlineTitle';
import { Properties } from './Properties';
import { Runs } from './Runs';
import { SubIssues } from './SubIssues';

export function IssuePage() {
  const { companyId = '', issueId = '' } = useParams();
  const issue = useQuery(issueQuery(companyId, issueId));
  const heading = issue.data ? `${issue.data.identifier} ${issue.data.title}` : 'Issue';
  useEffect(() => {
    document.title = `${heading} · Boardroom`;
  }, [heading]);

  if (issue.isPending)
    return (
      <div className="page">
        <Loading label="Loading the issue" />
      </div>
    );
  if (issue.isError)
    return (
      <div className="page">
        <h1>Issue {issueId}</h1>
        <ErrorNotice error={issue.error} title="The issue could not be loaded" retry={() => void issue.refetch()} />
      </div>
    );
  const detail = issue.data;
  const id = detail.id;

  return (
    <div className="page issue-page">
      <nav aria-label="Breadcrumb" className="breadcrumb muted">
        <Link to={`/c/${companyId}/issues`}>Issues</Link>
        {[...detail.ancestors].reverse().map((ancestor) => (
          <span key={ancestor.id}>
            {' / '}
            <Link to={`/c/${companyId}/issues/${ancestor.identifier}`}>{ancestor.identifier}</Link>
          </span>
        ))}
        {' / '}
        <span className="mono">{detail.identifier}</span>
      </nav>
      <div className="issue-layout">
        <div className="issue-main">
          <InlineTitle key={`title-${id}`} title={detail.title} companyId={companyId} issueId={id} />
          <p className="muted issue-meta">
            Created{' '}
            <time dateTime={detail.createdAt} title={fullTime(detail.createdAt)}>
              {timeAgo(detail.createdAt)}
            </time>{' '}
            · updated{' '}
            <time dateTime={detail.updatedAt} title={fullTime(detail.updatedAt)}>
              {timeAgo(detail.updatedAt)}
            </time>
          </p>
          <InlineDescription
            key={`description-${id}`}
            description={detail.description}
            companyId={companyId}
            issueId={id}
          />
          <Runs companyId={companyId} issue={detail} />
          <SubIssues companyId={companyId} issue={detail} />
          <Documents companyId={companyId} issueId={id} />
          <Attachments companyId={companyId} issueId={id} />
          <Comments companyId={companyId} issueId={id} />
        </div>
        <Properties companyId={companyId} issue={detail} />
      </div>
    </div>
  );
}

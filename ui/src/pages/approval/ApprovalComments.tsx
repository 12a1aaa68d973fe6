// The conversation on an approval: oldest first, and a comment box.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { Markdown } from '../../components/Markdown';
import { fullTime, timeAgo } from '../../lib/format';
import { APPROVAL_COMMENTS, approvalCommentsQuery } from '../../queries/approvals';

export function ApprovalComments({
  companyId,
  approvalId,
  agentName,
}: {
  companyId: string;
  approvalId: string;
  agentName: (id: string) => string;
}) {
  const [body, setBody] = useState('');
  const queryClient = useQueryClient();
  const commentsQuery = approvalCommentsQuery(companyId, approvalId);
  const comments = useQuery(commentsQuery);
  const add = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/approvals/{approvalId}/comments', {
          params: { path: { approvalId } },
          body: { body: body.trim() },
        }),
      ),
    onSuccess: () => {
      setBody('');
      return queryClient.invalidateQueries({ queryKey: commentsQuery.queryKey });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim()) add.mutate();
  };

  return (
    <section className="approval-section" aria-labelledby="approval-comments">
      <h2 id="approval-comments">Comments</h2>
      {comments.isPending ? (
        <Loading label="Loading comments" />
      ) : comments.isError ? (
        <ErrorNotice error={comments.error} title="Comments could not be loaded" retry={() => comments.refetch()} />
      ) : comments.data.length === 0 ? (
        <p className="muted">No comments yet.</p>
      ) : (
        <ol className="approval-comments">
          {comments.data.map((comment) => (
            <li key={comment.id}>
              <p className="muted">
                {comment.authorAgentId ? agentName(comment.authorAgentId) : 'Board'} ·{' '}
                <time dateTime={comment.createdAt} title={fullTime(comment.createdAt)}>
                  {timeAgo(comment.createdAt)}
                </time>
              </p>
              <Markdown text={comment.body} />
            </li>
          ))}
        </ol>
      )}
      {comments.data?.length === APPROVAL_COMMENTS && (
        <p className="muted">Showing the first {APPROVAL_COMMENTS} comments.</p>
      )}
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="approval-comment">Add a comment</label>
          <textarea
            id="approval-comment"
            value={body}
            onChange={(event) => setBody(event.target.value)}
            placeholder="Markdown; agents read this thread"
          />
        </div>
        {add.isError && <ErrorNotice error={add.error} title="The comment was not added" />}
        <button type="submit" disabled={add.isPending || !body.trim()}>
          Comment
        </button>
      </form>
    </section>
  );
}

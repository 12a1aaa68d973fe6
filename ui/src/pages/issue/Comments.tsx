// The issue's comments (markdown, newest COMMENT_PAGE shown oldest first) and a composer posting as
// the signed-in board user.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Markdown } from '../../components/Markdown';
import { fullTime, timeAgo } from '../../lib/format';
import { useAgentNames } from '../../queries/agents';
import { COMMENT_PAGE, issueCommentsQuery } from '../../queries/issues';
import { MentionComposer } from './MentionComposer';

export function Comments({ companyId, issueId }: { companyId: string; issueId: string }) {
  const queryClient = useQueryClient();
  const names = useAgentNames(companyId);
  const [draft, setDraft] = useState('');
  const commentsQuery = issueCommentsQuery(companyId, issueId);
  const key = commentsQuery.queryKey;
  const comments = useQuery(commentsQuery);
  const post = useMutation({
    mutationFn: async (body: string) =>
      data(await api.POST('/api/issues/{issueId}/comments', { params: { path: { issueId } }, body: { body } })),
    onSuccess: (created) => {
      setDraft('');
      // Shown at once from the answer; the refetch then brings anything posted meanwhile.
      queryClient.setQueryData<typeof comments.data>(key, (shown) =>
        shown && !shown.some((comment) => comment.id === created.id) ? [...shown, created].slice(-COMMENT_PAGE) : shown,
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const submit = () => {
    if (draft.trim() && !post.isPending) post.mutate(draft);
  };
  const list = comments.data ?? [];

  return (
    <section className="issue-section" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments {list.length > 0 && <span className="count">{list.length}</span>}</h2>
      {comments.isError && (
        <ErrorNotice
          error={comments.error}
          title="Comments could not be loaded"
          retry={() => void comments.refetch()}
        />
      )}
      {comments.isSuccess && list.length === 0 && <p className="muted">No comments yet.</p>}
      {list.length === COMMENT_PAGE && <p className="muted">Showing the latest {COMMENT_PAGE} comments.</p>}
      <ol className="comment-list">
        {list.map((comment) => (
          <li key={comment.id} className="comment">
            <div className="comment-meta">
              <strong>{comment.authorAgentId ? names.nameOf(comment.authorAgentId) : 'Board'}</strong>
              <time dateTime={comment.createdAt} title={fullTime(comment.createdAt)} className="muted">
                {timeAgo(comment.createdAt)}
              </time>
            </div>
            <Markdown text={comment.body} headingLevel={3} />
          </li>
        ))}
      </ol>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <MentionComposer
          agents={names.agents}
          value={draft}
          onChange={setDraft}
          onSubmit={submit}
          label="New comment"
        />
        <div className="row">
          <button type="submit" className="primary" disabled={post.isPending || !draft.trim()}>
            {post.isPending ? 'Posting…' : 'Comment'}
          </button>
          <span className="muted">Mentioning an agent wakes it.</span>
        </div>
      </form>
      {post.isError && <ErrorNotice error={post.error} title="The comment was not posted" />}
    </section>
  );
}

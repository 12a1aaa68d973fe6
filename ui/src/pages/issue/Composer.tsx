// The comment composer at the foot of the timeline (sticky at the viewport's bottom while the timeline
// is long): markdown with @-mentions of agents (a mention wakes the agent), Ctrl/Cmd-Enter posts, as
// the signed-in board user. A posted comment shows at once from the answer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button } from '../../components/ui/Button';
import { Kbd } from '../../components/ui/Kbd';
import type { Agent } from '../../queries/agents';
import { COMMENT_PAGE, issueCommentsQuery } from '../../queries/issues';
import { MentionComposer } from './MentionComposer';

export function Composer({ companyId, issueId, agents }: { companyId: string; issueId: string; agents: Agent[] }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState('');
  const key = issueCommentsQuery(companyId, issueId).queryKey;
  const post = useMutation({
    mutationFn: async (body: string) =>
      data(await api.POST('/api/issues/{issueId}/comments', { params: { path: { issueId } }, body: { body } })),
    onSuccess: (created) => {
      setDraft('');
      // Shown at once from the answer; the refetch then brings anything posted meanwhile.
      queryClient.setQueryData(key, (shown) =>
        shown && !shown.some((comment) => comment.id === created.id) ? [...shown, created].slice(-COMMENT_PAGE) : shown,
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const submit = () => {
    if (draft.trim() && !post.isPending) post.mutate(draft);
  };

  return (
    <form
      className="issue-composer"
      aria-label="Add a comment"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <MentionComposer agents={agents} value={draft} onChange={setDraft} onSubmit={submit} label="New comment" />
      <div className="issue-composer-actions">
        <span className="muted">
          Type @ to mention an agent (it wakes) · <Kbd keys={['Ctrl', 'Enter']} /> posts
        </span>
        <Button type="submit" variant="primary" loading={post.isPending} disabled={!draft.trim()}>
          {post.isPending ? 'Posting…' : 'Comment'}
        </Button>
      </div>
      {post.isError && <ErrorNotice error={post.error} title="The comment was not posted" />}
    </form>
  );
}

// An approval waiting on a revision, sent back for a decision by the board, as its requester would
// (POST .../resubmit): with the payload as it stands, or edited. The payload is edited as JSON; text
// that does not parse is refused here with the parser's reason, and nothing is sent.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useRefreshAfterDecision } from './refresh';

type Payload = Record<string, unknown>;

/** The edited text as a payload object, or why it is not one. */
function parsePayload(text: string): { payload: Payload } | { problem: string } {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { problem: 'The payload must be a JSON object ({ … }).' };
    return { payload: value as Payload };
  } catch (err) {
    return {
      problem: `The payload is not valid JSON (${err instanceof Error ? err.message : String(err)}). Fix it, or reload the page to start again from the current payload.`,
    };
  }
}

export function ResubmitForm({
  companyId,
  approvalId,
  payload,
}: {
  companyId: string;
  approvalId: string;
  payload: Payload;
}) {
  // Formatted once: a payload may be up to 256 KiB, and this renders on every key.
  const [original] = useState(() => JSON.stringify(payload, null, 2));
  const [text, setText] = useState(original);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useRefreshAfterDecision(companyId);
  const resubmit = useMutation({
    mutationFn: async (edited: Payload | null) =>
      data(
        await api.POST('/api/approvals/{approvalId}/resubmit', {
          params: { path: { approvalId } },
          body: edited ? { payload: edited } : {},
        }),
      ),
    onSettled: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text === original) {
      setProblem(null);
      resubmit.mutate(null); // unchanged: the payload stays as stored
      return;
    }
    const parsed = parsePayload(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    resubmit.mutate(parsed.payload);
  };

  return (
    <form className="approval-resubmit" onSubmit={submit} aria-labelledby="approval-resubmit">
      <h3 id="approval-resubmit">Resubmit</h3>
      <p className="muted">Send it back for a decision as its requester would, with the request as it is or edited.</p>
      <div className="field">
        <label htmlFor="resubmit-payload">Request (JSON)</label>
        <textarea
          id="resubmit-payload"
          className="mono"
          rows={8}
          spellCheck={false}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? 'resubmit-problem' : undefined}
        />
      </div>
      {problem && (
        <p id="resubmit-problem" role="alert" className="field-error">
          {problem}
        </p>
      )}
      {resubmit.isError && <ErrorNotice error={resubmit.error} title="The approval was not resubmitted" />}
      <div className="page-actions">
        <button type="submit" disabled={resubmit.isPending}>
          {resubmit.isPending ? 'Resubmitting…' : 'Resubmit'}
        </button>
      </div>
    </form>
  );
}

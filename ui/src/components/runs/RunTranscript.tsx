// A run's log as it is written: GET /api/heartbeat-runs/{runId}/log/stream (Server-Sent Events).
// The browser resumes after a drop from the last byte offset (Last-Event-ID); the stream ends with
// the run's final status. Only the last MAX_CHARS are kept, so a long run never grows the page.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { runStatusLabel } from './run-status';

const MAX_CHARS = 512 * 1024;

export function RunTranscript({ runId, label = 'Run transcript' }: { runId: string; label?: string }) {
  const [text, setText] = useState('');
  const [ended, setEnded] = useState<string | null>(null);
  const [trimmed, setTrimmed] = useState(false);
  const box = useRef<HTMLPreElement>(null);
  const stickToBottom = useRef(true);

  useEffect(() => {
    setText('');
    setEnded(null);
    setTrimmed(false);
    const source = new EventSource(`/api/heartbeat-runs/${runId}/log/stream`);
    source.addEventListener('log', (message) => {
      const { content } = JSON.parse(message.data) as { content: string };
      setText((previous) => {
        const next = previous + content;
        if (next.length <= MAX_CHARS) return next;
        setTrimmed(true);
        return next.slice(next.length - MAX_CHARS);
      });
    });
    source.addEventListener('end', (message) => {
      setEnded(message.data.replace(/^"|"$/g, ''));
      source.close();
    });
    return () => source.close();
  }, [runId]);

  // After every render (more log, the placeholder replaced, the end note): a reader at the bottom
  // stays at the bottom; one who scrolled up is left where they are.
  useLayoutEffect(() => {
    const element = box.current;
    if (element && stickToBottom.current) element.scrollTop = element.scrollHeight;
  });

  return (
    <section aria-label={label}>
      {trimmed && <p className="muted">Showing the last {Math.round(MAX_CHARS / 1024)} KB of the log.</p>}
      <pre
        ref={box}
        className="transcript"
        tabIndex={0}
        aria-live="off"
        data-testid="run-transcript"
        onScroll={(event) => {
          const element = event.currentTarget;
          stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        }}
      >
        {text || (ended ? 'This run wrote no log.' : 'Waiting for output…')}
      </pre>
      <p className="muted" role="status">
        {ended ? `Run ended: ${runStatusLabel(ended)}` : 'Live'}
      </p>
    </section>
  );
}

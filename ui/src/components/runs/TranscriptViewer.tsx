// A run's transcript: its log as it is written, GET /api/heartbeat-runs/{runId}/log/stream
// (Server-Sent Events). The browser resumes after a drop from the last byte offset (Last-Event-ID);
// the stream ends with the run's final status. Only the last MAX_CHARS are kept, so a long run never
// grows the page. Terminal colours are shown (ansi.ts), other escape codes dropped. Follow mode: the
// view sticks to the newest line until the reader scrolls up, then "Jump to latest" brings it back.
//
// Collapsed (a run in a list), it shows only its last line: a live run's from the stream, a
// finished run's from one bounded read of its log's end; expanding follows the whole log.
//
// The stored log interleaves stdout and stderr with nothing to tell them apart (the engine keeps
// only the text), so the transcript cannot show them apart or filter by stream.
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ArrowDown } from 'lucide-react';
import { Icon } from '../ui/Icon';
import { runLogTailQuery } from '../../queries/runs';
import { type AnsiSpan, type AnsiStyle, PLAIN, parseAnsiLine, stripAnsi } from './ansi';
import { isLive, runStatusLabel } from './run-status';

const MAX_CHARS = 512 * 1024;
/** How close to the end counts as "at the end" (a reader a few pixels up still follows). */
const FOLLOW_SLACK_PX = 24;

export interface TranscriptRun {
  runId: string;
  status: string;
  logBytes: number;
}

export function TranscriptViewer({
  companyId,
  run,
  label = 'Run transcript',
  collapsed: startCollapsed = false,
}: {
  companyId: string;
  run: TranscriptRun;
  label?: string;
  collapsed?: boolean;
}) {
  const [collapsed, setCollapsed] = useState(startCollapsed);
  const live = isLive(run);
  const log = useLogStream(run.runId, !collapsed || live);
  const tail = useQuery({
    ...runLogTailQuery(companyId, run.runId, run.logBytes),
    enabled: collapsed && !live && run.logBytes > 0,
  });

  if (collapsed) {
    const text = live ? log.text : (tail.data ?? '');
    const last = lastLine(text);
    return (
      <section aria-label={label} className="transcript-collapsed">
        <p className="transcript-last-line mono" title={last ?? undefined}>
          {last ?? (live ? 'Waiting for output…' : run.logBytes === 0 ? 'This run wrote no log.' : '…')}
        </p>
        <button type="button" className="quiet" aria-expanded={false} onClick={() => setCollapsed(false)}>
          Show transcript
        </button>
      </section>
    );
  }
  return (
    <section aria-label={label} className="transcript-viewer">
      {startCollapsed && (
        <button type="button" className="quiet" aria-expanded={true} onClick={() => setCollapsed(true)}>
          Hide transcript
        </button>
      )}
      {log.trimmed && <p className="muted">Showing the last {Math.round(MAX_CHARS / 1024)} KB of the log.</p>}
      <LogBox text={log.text} ended={log.ended} />
      <p className="muted" role="status">
        {log.ended ? `Run ended: ${runStatusLabel(log.ended)}` : 'Live'}
      </p>
    </section>
  );
}

/** The log of a run as it grows (kept to its last MAX_CHARS); nothing is opened while `enabled` is false. */
function useLogStream(runId: string, enabled: boolean) {
  const [text, setText] = useState('');
  const [ended, setEnded] = useState<string | null>(null);
  const [trimmed, setTrimmed] = useState(false);
  useEffect(() => {
    setText('');
    setEnded(null);
    setTrimmed(false);
    if (!enabled) return;
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
  }, [runId, enabled]);
  return { text, ended, trimmed };
}

function lastLine(text: string): string | null {
  const lines = stripAnsi(text).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (line) return line;
  }
  return null;
}

function LogBox({ text, ended }: { text: string; ended: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const lines = useMemo(() => styledLines(text), [text]);

  // After every render (more log, the end note): a reader who follows stays at the bottom; one who
  // scrolled up is left where they are.
  useLayoutEffect(() => {
    const element = box.current;
    if (element && following) element.scrollTop = element.scrollHeight;
  });

  return (
    <div className="transcript-frame">
      <div
        ref={box}
        className="transcript"
        tabIndex={0}
        role="log"
        aria-live="off"
        aria-label="Log"
        data-testid="run-transcript"
        onScroll={(event) => {
          const element = event.currentTarget;
          setFollowing(element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX);
        }}
      >
        {text ? (
          lines.map((spans, index) => (
            // Lines only ever append (or drop from the top when trimmed, when Line compares content).
            <Line key={index} spans={spans} />
          ))
        ) : (
          <span className="muted">{ended ? 'This run wrote no log.' : 'Waiting for output…'}</span>
        )}
      </div>
      {!following && (
        <button
          type="button"
          className="transcript-jump"
          onClick={() => {
            setFollowing(true);
            const element = box.current;
            if (element) element.scrollTop = element.scrollHeight;
          }}
        >
          <Icon icon={ArrowDown} /> Jump to latest
        </button>
      )}
    </div>
  );
}

function styledLines(text: string): AnsiSpan[][] {
  const lines: AnsiSpan[][] = [];
  let style: AnsiStyle = PLAIN;
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  for (const line of raw) {
    const parsed = parseAnsiLine(line, style);
    lines.push(parsed.spans);
    style = parsed.end;
  }
  return lines;
}

const Line = memo(
  function Line({ spans }: { spans: AnsiSpan[] }) {
    return (
      <div className="transcript-line">
        {spans.length === 0
          ? '\u200b'
          : spans.map((span, index) =>
              span.fg === null && !span.bold ? (
                span.text
              ) : (
                <span key={index} className={spanClass(span)}>
                  {span.text}
                </span>
              ),
            )}
      </div>
    );
  },
  (before, after) =>
    before.spans.length === after.spans.length &&
    before.spans.every((span, i) => {
      const other = after.spans[i];
      return other && span.text === other.text && span.fg === other.fg && span.bold === other.bold;
    }),
);

const spanClass = (span: AnsiSpan) =>
  [span.fg !== null && `ansi-${span.fg}`, span.bold && 'ansi-bold'].filter(Boolean).join(' ');

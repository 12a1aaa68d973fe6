// A run's transcript: its log as it is written, GET /api/heartbeat-runs/{runId}/log/stream
// (Server-Sent Events). The browser resumes after a drop from the last byte offset (Last-Event-ID);
// the stream ends with the run's final status. Only the last MAX_CHARS are kept, so a long run never
// grows the page. Terminal colours are shown (ansi.ts), other escape codes dropped. Follow mode: the
// view sticks to the newest line until the reader scrolls up, then "Jump to latest" brings it back.
//
// Collapsed (a run in a list), it shows only its last line: a live run's from the stream, a
// finished run's from one bounded read of its log's end; expanding follows the whole log.
//
// What the run wrote on stderr (each log event says which of its bytes, log-streams.ts) is shown in
// the danger tone with a mark at the line's edge, named "stderr" for screen readers (a visually
// hidden word that is never selected in a copy); the filter shows All, only Output (stdout) or only
// Errors (stderr): a line with both shows only the spans of the chosen stream.
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ArrowDown } from 'lucide-react';
import { Icon } from '../ui/Icon';
import { TabPanel, Tabs } from '../ui/Tabs';
import { runLogTailQuery } from '../../queries/runs';
import { stripAnsi } from './ansi';
import {
  appendPieces,
  type ByteRange,
  filterLines,
  type StreamFilter,
  type StreamPiece,
  type StreamSpan,
  splitStreams,
  type TranscriptLine,
  transcriptLines,
} from './log-streams';
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
      <StreamTabs pieces={log.pieces} ended={log.ended} />
      <p className="muted" role="status">
        {log.ended ? `Run ended: ${runStatusLabel(log.ended)}` : 'Live'}
      </p>
    </section>
  );
}

/** The log of a run as it grows (kept to its last MAX_CHARS); nothing is opened while `enabled` is false. */
function useLogStream(runId: string, enabled: boolean) {
  const [pieces, setPieces] = useState<StreamPiece[]>([]);
  const [ended, setEnded] = useState<string | null>(null);
  const [trimmed, setTrimmed] = useState(false);
  useEffect(() => {
    setPieces([]);
    setEnded(null);
    setTrimmed(false);
    if (!enabled) return;
    const source = new EventSource(`/api/heartbeat-runs/${runId}/log/stream`);
    source.addEventListener('log', (message) => {
      const { content, offset, stderr } = JSON.parse(message.data) as {
        content: string;
        offset: number;
        stderr?: ByteRange[];
      };
      setPieces((previous) => {
        const next = appendPieces(previous, splitStreams(content, offset, stderr), MAX_CHARS);
        if (next.trimmed) setTrimmed(true);
        return next.pieces;
      });
    });
    source.addEventListener('end', (message) => {
      setEnded(message.data.replace(/^"|"$/g, ''));
      source.close();
    });
    return () => source.close();
  }, [runId, enabled]);
  const text = useMemo(() => pieces.map((piece) => piece.text).join(''), [pieces]);
  return { pieces, text, ended, trimmed };
}

const FILTERS: { value: StreamFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'stdout', label: 'Output' },
  { value: 'stderr', label: 'Errors' },
];

/** The log with its filter: All, Output (stdout), Errors (stderr). */
function StreamTabs({ pieces, ended }: { pieces: StreamPiece[]; ended: string | null }) {
  const [filter, setFilter] = useState<StreamFilter>('all');
  const lines = useMemo(() => transcriptLines(pieces), [pieces]);
  const errorLines = useMemo(() => lines.filter((line) => line.stderr).length, [lines]);
  return (
    <div className="transcript-streams">
      <div className="transcript-streams-head">
        <Tabs
          label="Show"
          value={filter}
          onValueChange={setFilter}
          items={FILTERS.map((item) =>
            item.value === 'stderr' && errorLines > 0 ? { ...item, count: errorLines } : item,
          )}
        >
          {FILTERS.map((item) => (
            <TabPanel key={item.value} value={item.value}>
              <LogBox lines={filterLines(lines, item.value)} filter={item.value} ended={ended} />
            </TabPanel>
          ))}
        </Tabs>
        {errorLines > 0 && (
          <p className="transcript-legend">
            <span className="transcript-legend-mark" aria-hidden="true" /> Written on stderr
          </p>
        )}
      </div>
    </div>
  );
}

function lastLine(text: string): string | null {
  const lines = stripAnsi(text).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (line) return line;
  }
  return null;
}

const EMPTY: Record<StreamFilter, string> = {
  all: 'This run wrote no log.',
  stdout: 'Nothing on stdout.',
  stderr: 'Nothing on stderr.',
};

function LogBox({ lines, filter, ended }: { lines: TranscriptLine[]; filter: StreamFilter; ended: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);

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
        {lines.length > 0 ? (
          lines.map((line, index) => (
            // Lines only ever append (or drop from the top when trimmed, when Line compares content).
            <Line key={index} spans={line.spans} stream={lineStream(line)} />
          ))
        ) : (
          <span className="muted">{ended ? EMPTY[filter] : 'Waiting for output…'}</span>
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

/** Which streams wrote a line: `both` when stdout and stderr each wrote part of it. */
const lineStream = (line: TranscriptLine) => (line.stderr ? (line.stdout ? 'both' : 'stderr') : 'stdout');

const Line = memo(
  function Line({ spans, stream }: { spans: StreamSpan[]; stream: 'stdout' | 'stderr' | 'both' }) {
    let marked = false;
    return (
      <div className="transcript-line" data-stream={stream}>
        {spans.length === 0
          ? '\u200b'
          : spans.map((span, index) => {
              const styled =
                span.fg === null && !span.bold ? (
                  span.text
                ) : (
                  <span key={index} className={spanClass(span)}>
                    {span.text}
                  </span>
                );
              if (!span.stderr) return styled;
              // The first stderr span of a line says so to a screen reader (never copied with the text).
              const marker = marked ? null : <span className="visually-hidden transcript-stream-marker">stderr: </span>;
              marked = true;
              return (
                <span key={index} className="transcript-stderr">
                  {marker}
                  {styled}
                </span>
              );
            })}
      </div>
    );
  },
  (before, after) =>
    before.stream === after.stream &&
    before.spans.length === after.spans.length &&
    before.spans.every((span, i) => {
      const other = after.spans[i];
      return (
        other &&
        span.text === other.text &&
        span.fg === other.fg &&
        span.bold === other.bold &&
        span.stderr === other.stderr
      );
    }),
);

const spanClass = (span: StreamSpan) =>
  [span.fg !== null && `ansi-${span.fg}`, span.bold && 'ansi-bold'].filter(Boolean).join(' ');

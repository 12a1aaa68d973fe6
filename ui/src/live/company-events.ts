// One EventSource per open company (GET /api/companies/{id}/events). Events mark query resources
// stale; a flush refetches them at most once a second whatever the event rate, the first change
// after a quiet second within 50 ms. After a drop the browser reconnects with Last-Event-ID; when
// the stream cannot be reopened that way (the server restarted, the session ended) we open it again
// ourselves from the last id seen, backing off up to 10 s.
import type { QueryClient } from '@tanstack/react-query';
import type { Resource } from '../api/keys';
import { RUN_LOG_RESOURCES, RUN_STATUS_RESOURCES, resourcesForActivity, type ActivityEvent } from './invalidation';

const MIN_FLUSH_INTERVAL_MS = 1_000;
const BURST_WINDOW_MS = 50;
const MAX_BACKOFF_MS = 10_000;

export type LiveState = 'connecting' | 'live' | 'reconnecting';

export interface RunLogEvent {
  runId: string;
  offset: number;
}

type Listener<T> = (value: T) => void;

export class CompanyEvents {
  private source: EventSource | null = null;
  private lastEventId: string | null = null;
  private pending = new Set<Resource>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private lastFlushAt = 0;
  private reopenTimer: ReturnType<typeof setTimeout> | null = null;
  private backoffMs = 500;
  private closed = false;
  private stateListeners = new Set<Listener<LiveState>>();
  private runLogListeners = new Set<Listener<RunLogEvent>>();
  state: LiveState = 'connecting';

  constructor(
    private readonly companyId: string,
    private readonly queryClient: QueryClient,
  ) {
    this.open();
  }

  onState(listener: Listener<LiveState>): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Run log growth, for a transcript that is open (it reads the new bytes itself). */
  onRunLog(listener: Listener<RunLogEvent>): () => void {
    this.runLogListeners.add(listener);
    return () => this.runLogListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.source?.close();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
  }

  private open(): void {
    const query = this.lastEventId ? `?lastEventId=${encodeURIComponent(this.lastEventId)}` : '';
    const source = new EventSource(`/api/companies/${this.companyId}/events${query}`);
    this.source = source;
    source.onopen = () => {
      this.backoffMs = 500;
      this.setState('live');
    };
    source.addEventListener('activity', (message) => {
      this.lastEventId = message.lastEventId || this.lastEventId;
      this.mark(resourcesForActivity(JSON.parse(message.data) as ActivityEvent));
    });
    source.addEventListener('run', () => this.mark(RUN_STATUS_RESOURCES));
    source.addEventListener('run_log', (message) => {
      const event = JSON.parse(message.data) as RunLogEvent;
      for (const listener of this.runLogListeners) listener(event);
      this.mark(RUN_LOG_RESOURCES);
    });
    // The stream could not resume from our id: everything may be stale.
    source.addEventListener('reset', () => this.refreshAll());
    source.onerror = () => {
      if (this.closed) return;
      if (source.readyState === EventSource.CONNECTING) return this.setState('reconnecting');
      // CLOSED: the browser gave up (an HTTP error answer). Open again ourselves, from the last id.
      this.setState('reconnecting');
      this.reopenTimer = setTimeout(() => this.open(), this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      // What happened while we were away is unknown until the replay arrives.
      this.refreshAll();
    };
  }

  private setState(state: LiveState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private refreshAll(): void {
    void this.queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === 'c' && query.queryKey[1] === this.companyId });
  }

  private mark(resources: Resource[]): void {
    for (const resource of resources) this.pending.add(resource);
    if (this.flushTimer) return;
    const wait = Math.max(BURST_WINDOW_MS, this.lastFlushAt + MIN_FLUSH_INTERVAL_MS - Date.now());
    this.flushTimer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.flushTimer = null;
    this.lastFlushAt = Date.now();
    const stale = this.pending;
    this.pending = new Set();
    void this.queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] === 'c' && query.queryKey[1] === this.companyId && stale.has(query.queryKey[2] as Resource),
    });
  }
}

// One EventSource per open company (GET /api/companies/{id}/events). Events mark query resources
// stale; each resource is refetched at most once a second whatever the event rate, and the first
// change to it after a quiet second within 50 ms. The second counts per resource: a run log growing
// every second keeps the dashboard busy without holding back an issue change behind it. A run_log
// event instead brings the live-runs rows its line, with no read; the lines of all runs go in
// together, on the same one-a-second rule, so 20 chatty runs are one render a second, not 20. After
// every drop (a network error, a restarting server, an ended session) we open the stream again
// ourselves from the last id seen (`?lastEventId=`), backing off from 0.5 s up to 10 s.
import type { QueryClient } from '@tanstack/react-query';
import { type CompanyResource, instanceKeys, isCompanyQuery } from '../api/keys';
import { companyKeys } from '../queries/company';
import { liveRunKeys } from '../queries/runs';
import { RUN_LOG_RESOURCES, RUN_STATUS_RESOURCES, resourcesForActivity, type ActivityEvent } from './invalidation';

const MIN_FLUSH_INTERVAL_MS = 1_000;
const BURST_WINDOW_MS = 50;
const MAX_BACKOFF_MS = 10_000;

export type LiveState = 'connecting' | 'live' | 'reconnecting';

interface RunLogEvent {
  runId: string;
  offset: number;
  /** The run's last non-blank line; absent from a server of an older release. */
  lastLine?: string | null;
}

/** The fields of a live-runs row that a run_log event brings up to date. */
interface LiveRunRow {
  runId: string;
  logBytes: number;
  lastLogLine: string | null;
}

type Listener<T> = (value: T) => void;

export class CompanyEvents {
  private source: EventSource | null = null;
  private lastEventId: string | null = null;
  /** Stale resources (by name) and when each may be refetched: one second after its own last refetch. */
  private due = new Map<string, number>();
  private lastRefetchAt = new Map<string, number>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private reopenTimer: ReturnType<typeof setTimeout> | null = null;
  /** Run lines heard since the rows were last updated, latest per run. */
  private runLines = new Map<string, { offset: number; lastLine: string | null }>();
  private runLinesTimer: ReturnType<typeof setTimeout> | null = null;
  private runLinesPutAt = 0;
  private backoffMs = 500;
  private closed = false;
  private stateListeners = new Set<Listener<LiveState>>();
  private activityListeners = new Set<Listener<ActivityEvent>>();
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

  /** Every activity entry as it arrives (the live toasts read them); returns the unsubscribe. */
  onActivity(listener: Listener<ActivityEvent>): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.source?.close();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    if (this.runLinesTimer) clearTimeout(this.runLinesTimer);
  }

  private open(): void {
    const query = this.lastEventId ? `?lastEventId=${encodeURIComponent(this.lastEventId)}` : '';
    const source = new EventSource(`/api/companies/${this.companyId}/events${query}`);
    this.source = source;
    source.onopen = () => {
      this.backoffMs = 500;
      this.setState('live');
      // A stream opened without an id starts live: a change committed between a page's first read
      // and this moment has no event. Reads older than the stream are refreshed once.
      if (!this.lastEventId) this.refreshReadsBefore(Date.now());
    };
    source.addEventListener('activity', (message) => {
      this.lastEventId = message.lastEventId || this.lastEventId;
      const entry = JSON.parse(message.data) as ActivityEvent;
      this.mark(resourcesForActivity(entry));
      for (const listener of this.activityListeners) listener(entry);
    });
    source.addEventListener('run', () => this.mark(RUN_STATUS_RESOURCES));
    source.addEventListener('run_log', (message) => {
      const event = JSON.parse(message.data) as RunLogEvent;
      // The event carries the run's last line: the live-runs lists take it as it comes, with no
      // read (10 open boards on 20 chatty runs were 10 list reads a second, on the API's CPU). A
      // server of an older release sends no line: the lists are read again instead.
      if (event.lastLine === undefined) this.mark(RUN_LOG_RESOURCES);
      else this.applyRunLog(event.runId, event.offset, event.lastLine);
    });
    // The stream could not resume from our id: everything may be stale.
    source.addEventListener('reset', () => this.refreshAll());
    source.onerror = () => {
      if (this.closed) return;
      // Every drop is handled here rather than by the browser's own reconnect, which resends
      // Last-Event-ID only while it retries and gives up for good on an HTTP error (a restarting
      // server, an ended session): we reopen from the last id we saw, backing off.
      source.close();
      this.setState('reconnecting');
      this.reopenTimer = setTimeout(() => this.open(), this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
      // What happened while we were away is unknown until the replay arrives.
      this.refreshAll();
    };
  }

  private applyRunLog(runId: string, offset: number, lastLine: string | null): void {
    const heard = this.runLines.get(runId);
    if (!heard || offset >= heard.offset)
      this.runLines.set(runId, { offset, lastLine: lastLine ?? heard?.lastLine ?? null });
    // Like a resource's refetch: within 50 ms after a quiet second, else a second after the last put.
    this.runLinesTimer ??= setTimeout(
      () => this.putRunLines(),
      Math.max(BURST_WINDOW_MS, this.runLinesPutAt + MIN_FLUSH_INTERVAL_MS - Date.now()),
    );
  }

  /** Every run line heard, into the live-runs rows in one update; rows of other runs stay the same objects. */
  private putRunLines(): void {
    const lines = this.runLines;
    this.runLines = new Map();
    this.runLinesTimer = null;
    this.runLinesPutAt = Date.now();
    this.queryClient.setQueriesData<LiveRunRow[]>({ queryKey: liveRunKeys.all(this.companyId) }, (runs) =>
      runs?.map((run) => {
        const heard = lines.get(run.runId);
        return heard && heard.offset >= run.logBytes
          ? { ...run, logBytes: heard.offset, lastLogLine: heard.lastLine ?? run.lastLogLine }
          : run;
      }),
    );
  }

  private setState(state: LiveState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private refreshReadsBefore(time: number): void {
    void this.queryClient.invalidateQueries({
      predicate: (query) =>
        isCompanyQuery(query.queryKey, this.companyId) &&
        query.state.dataUpdatedAt > 0 &&
        query.state.dataUpdatedAt < time,
    });
  }

  private refreshAll(): void {
    void this.queryClient.invalidateQueries({
      predicate: (query) => isCompanyQuery(query.queryKey, this.companyId),
    });
  }

  private mark(resources: CompanyResource[]): void {
    const now = Date.now();
    for (const { name } of resources) {
      if (this.due.has(name)) continue;
      this.due.set(name, Math.max(now + BURST_WINDOW_MS, (this.lastRefetchAt.get(name) ?? 0) + MIN_FLUSH_INTERVAL_MS));
    }
    this.schedule();
  }

  /** One timer, for the resource due soonest. */
  private schedule(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.due.size === 0) return;
    const soonest = Math.min(...this.due.values());
    this.flushTimer = setTimeout(() => this.flush(), Math.max(0, soonest - Date.now()));
  }

  private flush(): void {
    this.flushTimer = null;
    const now = Date.now();
    const stale = new Set<string>();
    for (const [resource, at] of this.due) {
      if (at > now) continue;
      stale.add(resource);
      this.due.delete(resource);
      this.lastRefetchAt.set(resource, now);
    }
    if (stale.size > 0) {
      void this.queryClient.invalidateQueries({
        predicate: (query) => isCompanyQuery(query.queryKey, this.companyId) && stale.has(query.queryKey[2] as string),
      });
      // The companies list (switcher, palette) is instance-level: a rename or archive reaches it too.
      if (stale.has(companyKeys.name)) void this.queryClient.invalidateQueries({ queryKey: instanceKeys.companies });
    }
    this.schedule();
  }
}

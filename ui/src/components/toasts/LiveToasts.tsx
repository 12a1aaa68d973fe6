// The live notices (./live-notices.ts) shown as toasts: heard over a second, then said at most one per
// kind, and never more than MAX_SHOWN of them on screen (the oldest go first). An entry is said once
// (a resumed stream may send it again) and only while it is news: a replay of old entries says nothing.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { CompanyEvents } from '../../live/company-events';
import { agentsQuery } from '../../queries/agents';
import { meQuery } from '../../queries/instance';
import { issueQuery } from '../../queries/issues';
import { toast } from '../ui/Toast';
import { collapse, type LiveNotice, noticeOf, type StreamEntry, type Viewer } from './live-notices';

const GATHER_MS = 1_000;
const MAX_SHOWN = 3;
/** Older entries are history (a replay after a reconnect), not news. */
const NEWS_MS = 2 * 60_000;

export function LiveToasts({ companyId, events }: { companyId: string; events: CompanyEvents | null }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const issueRef = /^\/c\/[^/]+\/issues\/([^/]+)/.exec(pathname)?.[1];
  const issue = useQuery({
    ...issueQuery(companyId, issueRef ? decodeURIComponent(issueRef) : ''),
    enabled: issueRef !== undefined,
  }).data;
  const agents = useQuery(agentsQuery(companyId)).data;
  const me = useQuery(meQuery()).data;

  // The listener reads the viewer as it is when an entry arrives, not as it was when it subscribed.
  const viewer = useRef<Viewer>({ companyId, userId: null, issue: null, agentName: () => undefined });
  viewer.current = {
    companyId,
    userId: me?.user.id ?? null,
    issue: issueRef && issue ? { id: issue.id, identifier: issue.identifier } : null,
    agentName: (agentId) => agents?.find((agent) => agent.id === agentId)?.name,
  };
  const go = useRef(navigate);
  go.current = navigate;

  useEffect(() => {
    if (!events) return;
    const seen = new Set<string>();
    let heard: LiveNotice[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const shown: (() => void)[] = [];
    const say = () => {
      timer = null;
      for (const notice of collapse(heard, viewer.current.issue?.identifier ?? null)) {
        const { link } = notice;
        shown.push(
          toast({
            tone: notice.tone,
            title: notice.title,
            ...(notice.description && { description: notice.description }),
            ...(link && { action: { label: link.label, onClick: () => void go.current(link.to) } }),
          }),
        );
        while (shown.length > MAX_SHOWN) shown.shift()?.();
      }
      heard = [];
    };
    const unsubscribe = events.onActivity((event) => {
      const entry = event as StreamEntry;
      if (seen.has(entry.id) || Date.now() - new Date(entry.createdAt).getTime() > NEWS_MS) return;
      seen.add(entry.id);
      const notice = noticeOf(entry, viewer.current);
      if (!notice) return;
      heard.push(notice);
      timer ??= setTimeout(say, GATHER_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [events]);
  return null;
}

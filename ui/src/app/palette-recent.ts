// The last entities (agents, issues) opened in this browser, per company, newest first: what the
// palette offers before anything is typed. Kept in localStorage; an unreadable entry is forgotten.
export interface RecentEntity {
  kind: 'agent' | 'issue';
  /** The id or identifier in the page's address. */
  ref: string;
}

export const RECENT_LIMIT = 5;
const key = (companyId: string) => `boardroom.palette.recent.${companyId}`;

export function readRecent(companyId: string): RecentEntity[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key(companyId)) ?? '[]');
    return Array.isArray(parsed)
      ? parsed
          .filter(
            (entry): entry is RecentEntity =>
              typeof entry?.ref === 'string' && (entry.kind === 'agent' || entry.kind === 'issue'),
          )
          .slice(0, RECENT_LIMIT)
      : [];
  } catch {
    return [];
  }
}

export function rememberRecent(companyId: string, entity: RecentEntity): void {
  const rest = readRecent(companyId).filter((entry) => !(entry.kind === entity.kind && entry.ref === entity.ref));
  try {
    localStorage.setItem(key(companyId), JSON.stringify([entity, ...rest].slice(0, RECENT_LIMIT)));
  } catch {
    // Storage full or refused (private mode): the palette then simply offers no recent items.
  }
}

/** The entity a board path shows, if it is an agent's or an issue's page. */
export function entityOfPath(pathname: string): { companyId: string; entity: RecentEntity } | null {
  const match = /^\/c\/([^/]+)\/(agents|issues)\/([^/]+)/.exec(pathname);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return {
    companyId: match[1],
    entity: { kind: match[2] === 'agents' ? 'agent' : 'issue', ref: decodeURIComponent(match[3]) },
  };
}

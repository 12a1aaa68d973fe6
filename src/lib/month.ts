// The UTC calendar month spend belongs to: `2026-11` for any instant of November 2026, UTC. The key of
// a month's scope usage counters (a new month is a new row, so nothing resets on the first).
export const utcMonth = (at: Date): string => at.toISOString().slice(0, 7);

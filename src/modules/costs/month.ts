// The UTC calendar month a spend counter belongs to. Counters carry their month; one of an older
// month reads as 0, and the first event of a new month restarts it (no reset job on the first).

/** `2026-11` for any instant of November 2026, UTC. */
export const utcMonth = (at: Date): string => at.toISOString().slice(0, 7);

/** The month's spend of an agent or company row as of `now`. */
export function spentThisMonth(row: { spentMonthlyCents: number; spentMonth: string | null }, now = new Date()): number {
  return row.spentMonth === utcMonth(now) ? row.spentMonthlyCents : 0;
}

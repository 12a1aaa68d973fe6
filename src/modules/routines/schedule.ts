// Schedule triggers: cron expressions (5 fields, or 6 with seconds first) read in an IANA timezone
// by croner, which also handles daylight-saving transitions: a time that falls in a spring-forward
// gap fires at the first valid moment after it, a time that occurs twice in the autumn fires once.
import { Cron } from 'croner';
import { unprocessable } from '../../core/errors.ts';

/** How many missed ticks a catch-up looks at (counting beyond this is reported as "at least"). */
export const MAX_TICKS_COUNTED = 10_000;

export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function cron(expression: string, timezone: string): Cron {
  return new Cron(expression, { timezone, paused: true, mode: '5-or-6-parts' });
}

/** 422 with croner's reason when the expression or the timezone is not usable. */
export function assertValidSchedule(expression: string, timezone: string): void {
  if (!isValidTimezone(timezone))
    throw unprocessable(`unknown timezone ${timezone}: use an IANA name such as Europe/Berlin or UTC`);
  let job: Cron;
  try {
    job = cron(expression, timezone);
  } catch (err) {
    throw unprocessable(`invalid cron expression: ${(err as Error).message}`);
  }
  if (!job.nextRun()) throw unprocessable('the cron expression never fires');
}

/** The first tick strictly after `after`, or null when the expression has none left. */
export function nextTick(expression: string, timezone: string, after: Date): Date | null {
  return cron(expression, timezone).nextRun(after);
}

/** The last tick at or before `at`, or null when there is none: the one a catch-up fires for. */
export function latestTick(expression: string, timezone: string, at: Date): Date | null {
  return cron(expression, timezone).previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;
}

/** The first `count` ticks strictly after `after` (fewer when the expression runs out): what a schedule will do, for people to check before saving it. */
export function upcomingTicks(expression: string, timezone: string, after: Date, count: number): Date[] {
  assertValidSchedule(expression, timezone);
  return cron(expression, timezone).nextRuns(count, after);
}

/**
 * The ticks in [from, until]: `from` itself (a due nextRunAt) and every later one up to `until`,
 * at most `limit` of them, whether more were left uncounted, and the first tick after `until`
 * (null when none is left): one parse of the expression for the whole catch-up.
 */
export function ticksBetween(
  expression: string,
  timezone: string,
  from: Date,
  until: Date,
  limit = MAX_TICKS_COUNTED,
): { ticks: Date[]; more: boolean; next: Date | null } {
  const job = cron(expression, timezone);
  const ticks: Date[] = [];
  let tick: Date | null = from;
  while (tick && tick.getTime() <= until.getTime()) {
    if (ticks.length === limit) return { ticks, more: true, next: job.nextRun(until) };
    ticks.push(tick);
    tick = job.nextRun(tick);
  }
  return { ticks, more: false, next: tick };
}

// How the board writes times, durations and money: one place, so every page says them alike.
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** A moment under this many seconds past is "just now": "now" or "12 seconds ago" ticking on
 * every row reads as noise. A moment under a second ahead is too (the server's clock a little
 * ahead of the browser's); further ahead it is a scheduled time and says "in 20 seconds". */
const JUST_NOW_SECONDS = 45;

/** "just now", "3 minutes ago", "in 2 hours". */
export function timeAgo(iso: string | Date, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (value > -JUST_NOW_SECONDS && value < 1) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return new Date(iso).toLocaleDateString();
}

/** "1:05:09", "4:07", "0:03": elapsed time of a run. */
export function duration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
/** Cents as dollars: "$12.34". */
export const cents = (value: number): string => money.format(value / 100);

const compactMoney = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});
/** Cents as dollars: "$15.00"; `compact` for a KPI's big figure: "$1.2K". */
export const formatMoney = (value: number, { compact = false } = {}): string =>
  compact ? compactMoney.format(value / 100) : cents(value);

/** A full timestamp for a title attribute (hover) next to a relative time. */
export const fullTime = (iso: string | Date): string => new Date(iso).toLocaleString();

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
/** A token count, short: "1.2M", "830". */
export const tokenCount = (value: number): string => compact.format(value);

/** Cents (hundredths of the unit) in any ISO 4217 currency: "€12.34". */
export const moneyIn = (value: number, currency: string): string =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value / 100);

/** "1 event", "3 events". */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count.toLocaleString()} ${count === 1 ? one : many}`;

/** Keys whose plain reading would mislead (a unit in the key, an abbreviation). */
const ENUM_WORDS: Record<string, string> = {
  billed_cents: 'Billed spend',
  cost_cents: 'Spend',
  api_key: 'API key',
  ceo: 'CEO',
  cto: 'CTO',
  http: 'HTTP',
};

/** An enum key with no vocabulary of its own, in words: "local_process" → "Local process". */
export function enumLabel(key: string): string {
  const word = ENUM_WORDS[key];
  if (word) return word;
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

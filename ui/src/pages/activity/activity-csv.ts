// The activity of the current filter as a CSV file, built in the browser from the list route (the
// feed has no pagination: at most 1,000 newest entries, which the export says when it hits).
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { type Entry, entrySentence, type Names, sentenceText } from '../../components/activity/activity-sentence';

type ActivityQuery = NonNullable<paths['/api/companies/{companyId}/activity']['get']['parameters']['query']>;

/** The most the list route returns in one read (SPEC: no pagination). */
export const EXPORT_MAX = 1000;

const COLUMNS = ['time', 'actor', 'sentence', 'action', 'entity_type', 'entity_id', 'run_id', 'details'] as const;

/** A CSV field: quoted when it holds a comma, quote or line break; formula starts defused for spreadsheets. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function activityCsv(entries: (Entry & { createdAt: string })[], names: Names): string {
  const rows = entries.map((entry) => {
    const sentence = entrySentence(entry, names);
    return [
      entry.createdAt,
      sentence.actor,
      sentenceText(sentence),
      entry.action,
      entry.entityType,
      entry.entityId,
      entry.runId ?? '',
      entry.details ? JSON.stringify(entry.details) : '',
    ];
  });
  return `${[COLUMNS as readonly string[], ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

/** Reads the filter's entries (newest, bounded) and saves them as a file; says how many and whether cut. */
export async function exportActivity(
  companyId: string,
  query: Omit<ActivityQuery, 'limit'>,
  names: Names,
): Promise<{ count: number; cut: boolean }> {
  const entries = data(
    await api.GET('/api/companies/{companyId}/activity', {
      params: { path: { companyId }, query: { ...query, limit: EXPORT_MAX } },
    }),
  );
  const blob = new Blob([activityCsv(entries, names)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `activity-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its bytes once click() returns; the URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return { count: entries.length, cut: entries.length === EXPORT_MAX };
}

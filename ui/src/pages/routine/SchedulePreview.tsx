// The next five fire times of a cron expression in a zone, as the server's scheduler computes them;
// written in that zone (what the author meant) with the instant in `dateTime`.
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { schedulePreviewQuery } from '../../queries/routines';

function inZone(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    timeZone: timezone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso));
}

export function SchedulePreview({
  companyId,
  cronExpression,
  timezone,
  id,
}: {
  companyId: string;
  cronExpression: string;
  timezone: string;
  id: string;
}) {
  const preview = useQuery(schedulePreviewQuery(companyId, cronExpression, timezone));
  if (!cronExpression.trim()) return null;
  if (preview.isError) {
    // 422: the expression or zone is wrong; the server's reason is the help.
    return preview.error instanceof ApiError && preview.error.status === 422 ? (
      <p id={id} className="field-error" role="alert">
        {preview.error.message}
      </p>
    ) : (
      <ErrorNotice
        error={preview.error}
        title="The fire times could not be previewed"
        retry={() => preview.refetch()}
      />
    );
  }
  const zone = preview.data?.timezone ?? timezone;
  return (
    <div id={id} className="schedule-preview">
      <span className="hint">Next fire times ({zone}):</span>
      {preview.isPending ? (
        <span className="muted"> computing…</span>
      ) : preview.data.fireTimes.length === 0 ? (
        <span className="muted"> none: the expression does not fire again.</span>
      ) : (
        <ol aria-label={`Next fire times in ${zone}`}>
          {preview.data.fireTimes.map((time) => (
            <li key={time}>
              <time dateTime={time}>{inZone(time, zone)}</time>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

// Cron expression and timezone inputs with the server's preview of what they will do.
import { useEffect, useState } from 'react';
import { SchedulePreview } from './SchedulePreview';

/** IANA zones the browser knows, offered as suggestions (the server validates what is typed). */
const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function ScheduleFields({
  companyId,
  idPrefix,
  cronExpression,
  timezone,
  onCron,
  onTimezone,
}: {
  companyId: string;
  idPrefix: string;
  cronExpression: string;
  timezone: string;
  onCron: (value: string) => void;
  onTimezone: (value: string) => void;
}) {
  // The preview asks the server once typing pauses, not on every key.
  const settledCron = useDebounced(cronExpression, 300);
  const settledZone = useDebounced(timezone, 300);
  return (
    <>
      <div className="routine-schedule-fields">
        <div className="field">
          <label htmlFor={`${idPrefix}-cron`}>Cron expression</label>
          <input
            id={`${idPrefix}-cron`}
            className="mono"
            required
            value={cronExpression}
            placeholder="0 9 * * 1-5"
            aria-describedby={`${idPrefix}-cron-hint ${idPrefix}-preview`}
            onChange={(event) => onCron(event.target.value)}
          />
          <span id={`${idPrefix}-cron-hint`} className="hint">
            minute hour day month weekday (or seconds first)
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${idPrefix}-timezone`}>Timezone</label>
          <input
            id={`${idPrefix}-timezone`}
            list={`${idPrefix}-zones`}
            value={timezone}
            placeholder="UTC"
            onChange={(event) => onTimezone(event.target.value)}
          />
          <datalist id={`${idPrefix}-zones`}>
            {ZONES.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
      </div>
      <SchedulePreview
        companyId={companyId}
        id={`${idPrefix}-preview`}
        cronExpression={settledCron}
        timezone={settledZone}
      />
    </>
  );
}

// The concurrency and catch-up policies, each with what the chosen one does written next to it.
import { CATCH_UP_POLICIES, CONCURRENCY_POLICIES, helpOf, type CatchUpPolicy, type ConcurrencyPolicy } from './model';

export function PolicyFields({
  idPrefix,
  concurrency,
  catchUp,
  onConcurrency,
  onCatchUp,
  disabled,
}: {
  idPrefix: string;
  concurrency: ConcurrencyPolicy;
  catchUp: CatchUpPolicy;
  onConcurrency: (value: ConcurrencyPolicy) => void;
  onCatchUp: (value: CatchUpPolicy) => void;
  disabled?: boolean;
}) {
  return (
    <div className="routine-policies">
      <div className="field">
        <label htmlFor={`${idPrefix}-concurrency`}>When a run finds the last issue still open</label>
        <select
          id={`${idPrefix}-concurrency`}
          value={concurrency}
          disabled={disabled}
          aria-describedby={`${idPrefix}-concurrency-help`}
          onChange={(event) => onConcurrency(event.target.value as ConcurrencyPolicy)}
        >
          {CONCURRENCY_POLICIES.map((policy) => (
            <option key={policy.value} value={policy.value}>
              {policy.label}
            </option>
          ))}
        </select>
        <span id={`${idPrefix}-concurrency-help`} className="hint">
          {helpOf(CONCURRENCY_POLICIES, concurrency)}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-catch-up`}>Schedule ticks missed during downtime</label>
        <select
          id={`${idPrefix}-catch-up`}
          value={catchUp}
          disabled={disabled}
          aria-describedby={`${idPrefix}-catch-up-help`}
          onChange={(event) => onCatchUp(event.target.value as CatchUpPolicy)}
        >
          {CATCH_UP_POLICIES.map((policy) => (
            <option key={policy.value} value={policy.value}>
              {policy.label}
            </option>
          ))}
        </select>
        <span id={`${idPrefix}-catch-up-help`} className="hint">
          {helpOf(CATCH_UP_POLICIES, catchUp)}
        </span>
      </div>
    </div>
  );
}

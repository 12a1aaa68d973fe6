// The concurrency and catch-up policies, each with what the chosen one does written next to it.
import { Select } from '../../components/ui/Combobox';
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
        <Select
          id={`${idPrefix}-concurrency`}
          value={concurrency}
          disabled={disabled}
          aria-describedby={`${idPrefix}-concurrency-help`}
          onChange={onConcurrency}
          options={CONCURRENCY_POLICIES.map(({ value, label }) => ({ value, label }))}
        />
        <span id={`${idPrefix}-concurrency-help`} className="hint">
          {helpOf(CONCURRENCY_POLICIES, concurrency)}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-catch-up`}>Schedule ticks missed during downtime</label>
        <Select
          id={`${idPrefix}-catch-up`}
          value={catchUp}
          disabled={disabled}
          aria-describedby={`${idPrefix}-catch-up-help`}
          onChange={onCatchUp}
          options={CATCH_UP_POLICIES.map(({ value, label }) => ({ value, label }))}
        />
        <span id={`${idPrefix}-catch-up-help`} className="hint">
          {helpOf(CATCH_UP_POLICIES, catchUp)}
        </span>
      </div>
    </div>
  );
}

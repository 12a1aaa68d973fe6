// The adapters of this instance (GET /api/adapters) as a radio group: which can run, and for local
// CLIs whether the binary was found on this machine (the environment check named `command`).
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { adaptersQuery, type Adapter } from '../../queries/instance';

/** Detected, not found, or not a local CLI (null): from the adapter's own environment check. */
export function detection(adapter: Adapter): { found: boolean; detail: string } | null {
  const check = adapter.environment.checks.find((candidate) => candidate.name === 'command');
  return check ? { found: check.ok, detail: check.detail } : null;
}

export function AdapterPicker({ value, onChange }: { value: string; onChange: (type: string) => void }) {
  const adapters = useQuery(adaptersQuery());
  if (adapters.isPending) return <Loading label="Looking for adapters and local CLIs" />;
  if (adapters.isError)
    return (
      <ErrorNotice error={adapters.error} retry={() => adapters.refetch()} title="The adapters could not be listed" />
    );
  return (
    <fieldset className="adapter-picker">
      <legend>Adapter: how the agent runs</legend>
      {adapters.data.map((adapter) => {
        const found = detection(adapter);
        const id = `adapter-${adapter.type}`;
        const usable = adapter.status.enabled;
        return (
          <label
            key={adapter.type}
            htmlFor={id}
            className={`adapter-option${value === adapter.type ? ' selected' : ''}${usable ? '' : ' unusable'}`}
          >
            <input
              type="radio"
              id={id}
              name="adapter"
              value={adapter.type}
              checked={value === adapter.type}
              disabled={!usable}
              onChange={() => onChange(adapter.type)}
              aria-describedby={`${id}-state`}
            />
            <span className="adapter-name">
              {adapter.label} <span className="mono muted">{adapter.type}</span>
            </span>
            <span id={`${id}-state`} className="adapter-state">
              {!usable ? (
                <span className="badge">{adapter.loadError ? 'failed to load' : 'disabled'}</span>
              ) : found === null ? null : found.found ? (
                <span className="badge badge-success" title={found.detail}>
                  CLI detected
                </span>
              ) : (
                <span className="badge badge-warning" title={found.detail}>
                  CLI not found
                </span>
              )}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

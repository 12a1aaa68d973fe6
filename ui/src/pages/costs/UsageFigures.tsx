import { plural, tokenCount } from '../../lib/format';
import type { Usage } from '../../queries/costs';

/** Tokens in and out, next to the cents they cost. */
export function UsageFigures({ usage }: { usage: Pick<Usage, 'inputTokens' | 'outputTokens' | 'eventCount'> }) {
  return (
    <span className="muted">
      {tokenCount(usage.inputTokens)} in · {tokenCount(usage.outputTokens)} out · {plural(usage.eventCount, 'event')}
    </span>
  );
}

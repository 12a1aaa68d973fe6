// The usage a run records (usageJson): reports add up over a run, tokens and cents summed, the
// last provider, model and billing type kept. One shape for every way usage arrives: structured
// lines from a process, an http receiver's complete call.
import type { AdapterUsage } from '../../adapters/types.ts';

export function addUsage(total: Record<string, unknown> | undefined, reported: AdapterUsage): Record<string, unknown> {
  const sum = (key: keyof AdapterUsage) =>
    ((total?.[key] as number | undefined) ?? 0) + ((reported[key] as number | undefined) ?? 0);
  return {
    provider: reported.provider ?? total?.provider ?? null,
    model: reported.model ?? total?.model ?? null,
    billingType: reported.billingType ?? total?.billingType ?? null,
    inputTokens: sum('inputTokens'),
    cachedInputTokens: sum('cachedInputTokens'),
    outputTokens: sum('outputTokens'),
    costCents: sum('costCents'),
    reports: ((total?.reports as number | undefined) ?? 0) + 1,
  };
}

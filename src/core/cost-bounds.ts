// Bounds of one usage event, shared by what reports usage (runtime adapters parse it from a CLI's
// output) and what records it (the cost events API and run completion).

export const BILLING_TYPES = [
  'metered_api',
  'subscription_included',
  'subscription_overage',
  'credits',
  'fixed',
  'unknown',
] as const;
/** One event's cost: up to 10,000 USD. Larger amounts are finance events, not usage. */
export const MAX_EVENT_COST_CENTS = 1_000_000;
export const MAX_TOKENS = 1_000_000_000_000;

// Request fields that mean the same thing on every route that takes them.
import { z } from 'zod';

/** An amount of money in cents: a budget (company or agent). */
export const budgetCents = z.number().int().min(0).max(2_000_000_000);

/** Skills named by id, canonical key or company-unique slug (an agent's desired skills). */
export const skillReferences = z.array(z.string().trim().min(1).max(300)).max(100);

/** A caller's key for a request it may repeat: a repeat answers the first result instead of acting twice. */
export const idempotencyKeyField = (effect: string) => z.string().trim().min(1).max(200).optional().describe(effect);

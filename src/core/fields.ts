// Request fields that mean the same thing on every route that takes them.
import { z } from 'zod';

/** A caller's key for a request it may repeat: a repeat answers the first result instead of acting twice. */
export const idempotencyKeyField = (effect: string) => z.string().trim().min(1).max(200).optional().describe(effect);

// High-entropy opaque tokens, stored only as SHA-256 and compared by hash lookup.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const BOARD_KEY_PREFIX = 'svc_board_';
export const AGENT_KEY_PREFIX = 'svc_agent_';

/** 32 random bytes (256 bits) in base64url, behind a prefix that says what the token is. */
export function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

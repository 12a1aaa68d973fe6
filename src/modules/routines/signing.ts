// Webhook triggers: their public id, their secret and the check of an incoming request against the
// trigger's signing mode. Signatures cover the raw body bytes as received (never a re-serialised
// parse) and are compared in constant time.
//
// - bearer (default): `Authorization: Bearer <secret>`.
// - hmac_sha256: `X-Service-Signature` or `X-Hub-Signature-256`: hex HMAC-SHA256 of the body under
//   the secret, optionally written `sha256=<hex>`.
// - codehost_hmac: the same headers plus `X-Service-Timestamp` (Unix seconds). The HMAC covers
//   `<timestamp>.<body>`, so a captured request cannot be replayed under a fresh timestamp; the
//   timestamp must lie within the trigger's replayWindowSec of the server clock.
// - none: no check (anyone who knows the URL may fire).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { newToken } from '../../lib/tokens.ts';
import { openSecret, sealSecret, type SealedValue, type SecretAadContext } from '../secrets/crypto.ts';

export const SIGNING_MODES = ['bearer', 'hmac_sha256', 'codehost_hmac', 'none'] as const;
export type SigningMode = (typeof SIGNING_MODES)[number];
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const DEFAULT_REPLAY_WINDOW_SEC = 300;

/** 18 random bytes: 24 URL-safe characters, unguessable. */
export const newPublicId = () => randomBytes(18).toString('base64url');
export const newWebhookSecret = () => newToken(WEBHOOK_SECRET_PREFIX);

/** The seal is bound to its company, trigger and secret version: a copied or stale row does not open. */
const aad = (companyId: string, triggerId: string, version: number): SecretAadContext => ({
  companyId,
  secretId: `routine-trigger:${triggerId}`,
  version,
});

export function sealWebhookSecret(
  masterKey: Buffer,
  trigger: { companyId: string; id: string; secretVersion: number },
  secret: string,
) {
  const sealed = sealSecret(masterKey, aad(trigger.companyId, trigger.id, trigger.secretVersion), secret);
  return { secretIv: sealed.iv, secretAuthTag: sealed.authTag, secretCiphertext: sealed.ciphertext };
}

export function openWebhookSecret(
  masterKey: Buffer,
  trigger: {
    companyId: string;
    id: string;
    secretVersion: number;
    secretIv: string | null;
    secretAuthTag: string | null;
    secretCiphertext: string | null;
  },
): string | null {
  if (!trigger.secretIv || !trigger.secretAuthTag || !trigger.secretCiphertext) return null;
  const sealed: SealedValue = {
    iv: trigger.secretIv,
    authTag: trigger.secretAuthTag,
    ciphertext: trigger.secretCiphertext,
  };
  return openSecret(masterKey, aad(trigger.companyId, trigger.id, trigger.secretVersion), sealed);
}

export interface SignedRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  nowMs: number;
}

export type SignatureVerdict = { ok: true; signature: string | null } | { ok: false; reason: string };

/**
 * One answer for every request that has not proved the secret, whatever the mode: a caller without
 * it learns nothing of the trigger, not even its signing mode (which headers it would expect).
 */
const UNPROVEN: SignatureVerdict = { ok: false, reason: 'missing or invalid signature' };

const header = (headers: SignedRequest['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Equal-length digests, so neither the content nor the length of the expected value leaks through timing. */
function sameSecretValue(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

const hmacHex = (secret: string, ...parts: (string | Buffer)[]) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
};

function givenSignature(headers: SignedRequest['headers']): string | undefined {
  const raw = header(headers, 'x-service-signature') ?? header(headers, 'x-hub-signature-256');
  return raw
    ?.trim()
    .replace(/^sha256=/i, '')
    .toLowerCase();
}

export function verifyWebhookRequest(
  mode: SigningMode,
  secret: string | null,
  replayWindowSec: number,
  request: SignedRequest,
): SignatureVerdict {
  if (mode === 'none') return { ok: true, signature: null };
  if (!secret) return UNPROVEN;
  if (mode === 'bearer') {
    const token = /^Bearer\s+(.+)$/i.exec(header(request.headers, 'authorization') ?? '')?.[1];
    if (token === undefined) return UNPROVEN;
    return sameSecretValue(token.trim(), secret) ? { ok: true, signature: null } : UNPROVEN;
  }
  const signature = givenSignature(request.headers);
  if (!signature) return UNPROVEN;
  if (mode === 'hmac_sha256') {
    return sameSecretValue(signature, hmacHex(secret, request.rawBody)) ? { ok: true, signature } : UNPROVEN;
  }
  const timestamp = header(request.headers, 'x-service-timestamp')?.trim();
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return UNPROVEN;
  if (!sameSecretValue(signature, hmacHex(secret, `${timestamp}.`, request.rawBody))) return UNPROVEN;
  // The signature holds, so the sender knows the secret: it may learn why the delivery is refused.
  if (Math.abs(request.nowMs / 1000 - Number(timestamp)) > replayWindowSec)
    return { ok: false, reason: `timestamp outside the replay window (${replayWindowSec} s)` };
  return { ok: true, signature };
}

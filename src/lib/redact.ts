// Removes sensitive values from free-form objects before they are stored or shown.
const SENSITIVE_KEY =
  /(secret|token|password|passwd|passphrase|api[_-]?key|private[_-]?key|authorization|credential|cookie)/i;
// Identifiers of sensitive things (secretId, apiKeyId, token_ids) are references, not values: keep them.
const REFERENCE_KEY = /(Id|Ids|_id|_ids)$/;
// Our own credentials are recognisable whatever key they sit under; so are bearer headers and JWTs.
const SENSITIVE_VALUE = /^(svc_(board|agent|sign)_|Bearer\s)|^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;
// Env bindings hold credentials under arbitrary names (DATABASE_URL, GH_PAT): plain values never survive.
const ENV_KEY = /^env$/i;
export const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

const isSecretRef = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && (v as { type?: unknown }).type === 'secret_ref';
// Only the reference fields survive, so a value smuggled into a reference object is still dropped.
const refOnly = (v: Record<string, unknown>) => ({ type: 'secret_ref', secretId: v.secretId, version: v.version });

export function redact(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return REDACTED;
  if (typeof value === 'string') return SENSITIVE_VALUE.test(value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // Secret references are ids, not values: keep them so the audit trail says which secret.
      if (isSecretRef(v)) out[key] = refOnly(v);
      else if (ENV_KEY.test(key) && v && typeof v === 'object' && !Array.isArray(v))
        out[key] = redactEnv(v as Record<string, unknown>);
      else out[key] = SENSITIVE_KEY.test(key) && !REFERENCE_KEY.test(key) ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

function redactEnv(env: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(env).map(([name, binding]) => [name, isSecretRef(binding) ? refOnly(binding) : REDACTED]),
  );
}

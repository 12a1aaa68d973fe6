// Removes sensitive values from free-form objects before they are stored or shown.
const SENSITIVE_KEY = /(secret|token|password|passwd|passphrase|api[_-]?key|private[_-]?key|authorization|credential|cookie)/i;
export const REDACTED = '[redacted]';
const MAX_DEPTH = 8;

export function redact(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // Secret references are ids, not values: keep them so the audit trail says which secret.
      const isSecretRef = v && typeof v === 'object' && (v as { type?: unknown }).type === 'secret_ref';
      out[key] = SENSITIVE_KEY.test(key) && !isSecretRef ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

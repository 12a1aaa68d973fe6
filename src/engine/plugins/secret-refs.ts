// `secrets.use`: in an `http.fetch`, a part of the url or of a header value may be
// `{ "$secret": "<config field>" }`, a field of the plugin's config schema of format `secret-ref`;
// the host puts in the value of the company secret the company's config names there. The value
// exists only in the outgoing request: the returned redactor masks it in anything the worker gets.
import { z } from 'zod';
import { isUuid } from '../../lib/ids.ts';
import { SECRET_REF_FORMAT } from '../../modules/plugins/json-schema.ts';
import { resolveSecretValue } from '../../modules/secrets/resolve.ts';
import { secretRefSchema } from '../../modules/secrets/refs.ts';
import { CallRefused, type CallScope, HostCallError } from './call.ts';

export const secretPart = z.object({ $secret: z.string().min(1).max(200) }).strict();
type Part = string | z.output<typeof secretPart>;

export type Redactor = (text: string) => string;

const REDACTED = '[secret]';

/** Each text (a string, a secret reference, or a list of both joined) with its secrets in; and the redactor. */
export async function resolveSecretParts(
  scope: CallScope,
  texts: (Part | Part[])[],
): Promise<{ values: string[]; redact: Redactor }> {
  const used = new Set<string>();
  const cache = new Map<string, string>();
  let config: Record<string, unknown> | null | undefined;
  const secretOf = async (field: string): Promise<string> => {
    const known = cache.get(field);
    if (known !== undefined) return known;
    if (!scope.actor.capabilities.includes('secrets.use'))
      throw new CallRefused('a secret reference needs the secrets.use capability, which this company did not grant');
    const declared = (scope.manifest.configSchema as { properties?: Record<string, { format?: unknown }> } | undefined)
      ?.properties?.[field];
    if (declared?.format !== SECRET_REF_FORMAT)
      throw new CallRefused(
        `config field ${JSON.stringify(field)} is not a secret reference of the plugin's config schema`,
      );
    config ??= await scope.secrets.configOf(scope.actor.pluginId, scope.companyId);
    const ref = refOf(config?.[field]);
    if (!ref)
      throw new HostCallError(
        'SECRET_UNAVAILABLE',
        `the company's config of this plugin names no secret in ${JSON.stringify(field)}`,
      );
    const value = await resolveSecretValue(scope.db, scope.secrets.masterKey, scope.companyId, ref);
    cache.set(field, value);
    if (value.length > 0) used.add(value);
    return value;
  };
  const values: string[] = [];
  for (const text of texts) {
    let joined = '';
    for (const part of Array.isArray(text) ? text : [text])
      joined += typeof part === 'string' ? part : await secretOf(part.$secret);
    values.push(joined);
  }
  const secrets = [...used].sort((a, b) => b.length - a.length);
  const redact: Redactor = (text) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
  return { values, redact };
}

/** A config field's reference: a secret's id (the field is a string of format secret-ref), or a `secret_ref` object. */
function refOf(value: unknown): { secretId: string; version?: 'latest' | number } | null {
  if (typeof value === 'string') return isUuid(value) ? { secretId: value, version: 'latest' } : null;
  const parsed = secretRefSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

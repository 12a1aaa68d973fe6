// What must not leave with a bundle, and how it comes back: secret references and sensitive env
// values become declared inputs, credentials in a configuration are left out, machine paths flagged.
import { redact, REDACTED } from '../../lib/redact.ts';
import type { EnvInput, EnvValue, SystemDependent } from './bundle.ts';

const SENSITIVE_KEY =
  /token|secret|passw(or)?d|pwd|cookie|credential|private|api[-_]?key|access[-_]?key|(^|_)key($|_)|auth|connection|conn[-_]?str|dsn|database[-_]?url|_url$/i;
/** A URL with a password in it is a connection string whatever its key says. */
const CREDENTIAL_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

export const looksSensitive = (key: string, value: string) => SENSITIVE_KEY.test(key) || CREDENTIAL_URL.test(value);

/** An absolute path (POSIX, Windows drive, UNC or home-relative): exists only on the machine that wrote it. */
export const isMachinePath = (value: string) => /^(\/|~\/|[A-Za-z]:[\\/]|\\\\)/.test(value);

/** An env value in the bundle that the importer must supply: `{ input: "<key>" }`. */
interface InputMarker {
  input: string;
}

/** What one export's env maps share: the company's secret names, and the inputs and warnings they add to. */
export interface EnvExport {
  /** Secret id to name: a reference becomes the input of that name. */
  secretNames: Map<string, string>;
  /** Inputs declared so far, by key; each env map adds its own. */
  inputs: Map<string, EnvInput>;
  warnings: string[];
  /** Every plain value is an input: for a caller who may not read configurations. */
  hidePlainValues?: boolean;
}

/**
 * The exported form of an env map of `owner` (`agents/<slug>`, `projects/<slug>`): secret
 * references and sensitive-looking plain values become declared inputs (no value); the rest is
 * kept as written.
 */
export function exportEnv(
  env: Record<string, unknown> | null | undefined,
  owner: string,
  { secretNames, inputs, warnings, hidePlainValues = false }: EnvExport,
): Record<string, unknown> | null {
  if (!env || typeof env !== 'object') return null;
  const out: Record<string, unknown> = {};
  const declare = (key: string, envName: string) => {
    const input = inputs.get(key) ?? { key, kind: 'secret' as const, requirement: 'required' as const, usedBy: [] };
    input.usedBy.push({ path: owner, env: envName });
    inputs.set(key, input);
    out[envName] = { input: key } satisfies InputMarker;
  };
  for (const [name, value] of Object.entries(env)) {
    if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'secret_ref') {
      const secretId = String((value as { secretId?: unknown }).secretId);
      declare(secretNames.get(secretId) ?? name, name);
      continue;
    }
    const plain =
      typeof value === 'string'
        ? value
        : value && typeof value === 'object' && (value as { type?: unknown }).type === 'plain'
          ? String((value as { value?: unknown }).value)
          : null;
    if (plain !== null && (hidePlainValues || looksSensitive(name, plain))) {
      declare(name, name);
      warnings.push(
        `${owner}: env ${name} ${hidePlainValues ? 'is not readable by the caller' : 'looks sensitive'}; its plain value was left out and declared as input ${name}`,
      );
      continue;
    }
    out[name] = value;
  }
  return out;
}

/**
 * An adapter configuration without its env (handled by exportEnv) and without what the project's
 * redaction (lib/redact.ts) hides: values under credential-like keys, our own credentials, and
 * secret references outside env (ids of this instance, meaningless elsewhere). Each removal is
 * named in a warning.
 */
export function exportConfig(
  config: Record<string, unknown>,
  owner: string,
  warnings: string[],
): Record<string, unknown> {
  const walk = (original: unknown, shown: unknown, at: string): unknown => {
    if (!original || typeof original !== 'object' || Array.isArray(original)) return original;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(original as Record<string, unknown>)) {
      const view = (shown as Record<string, unknown>)[key];
      const path = at ? `${at}.${key}` : key;
      if (
        view === REDACTED ||
        (value && typeof value === 'object' && (value as { type?: unknown }).type === 'secret_ref')
      ) {
        warnings.push(`${owner}: adapterConfig.${path} looks like a credential; left out`);
        continue;
      }
      out[key] = walk(value, view, path);
    }
    return out;
  };
  return walk(config, redact(config), '') as Record<string, unknown>;
}

/** Whether an env map of the bundle names an input (for reading it back). */
const inputOf = (value: unknown): string | null =>
  value &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  typeof (value as InputMarker).input === 'string' &&
  Object.keys(value).length === 1
    ? (value as InputMarker).input
    : null;

/**
 * The imported form of an env map: inputs become references to the secret supplied for them (by
 * `secretIds`, input key to secret id) or are dropped when none was supplied.
 */
export function importEnv(
  env: Record<string, unknown> | null,
  secretIds: Map<string, string>,
): Record<string, EnvValue> | null {
  if (!env) return null;
  const out: Record<string, EnvValue> = {};
  for (const [name, value] of Object.entries(env)) {
    const input = inputOf(value);
    if (input !== null) {
      const secretId = secretIds.get(input);
      if (secretId) out[name] = { type: 'secret_ref', secretId, version: 'latest' };
      continue;
    }
    out[name] = value as EnvValue;
  }
  return out;
}

/** Machine-specific values among `fields` (absolute paths and commands), added to `out`. */
export function flagSystemDependent(path: string, fields: Record<string, unknown>, out: SystemDependent[]): void {
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string' && isMachinePath(value)) out.push({ path, field, value });
  }
}

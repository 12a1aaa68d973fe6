// The adapter registry: type -> ServerAdapter. Built-ins go through the same door as an external
// package (a module exporting `createServerAdapter`, SPEC "Adapters"), so the engine has one code
// path and an external package cannot tell it apart. Built-ins can be neither removed nor
// overwritten (SPEC: DELETE /api/adapters/{type} is external only).
import * as claudeAdapter from './claude.ts';
import * as codexAdapter from './codex.ts';
import * as geminiAdapter from './gemini.ts';
import * as httpAdapter from './http.ts';
import * as opencodeAdapter from './opencode.ts';
import * as processAdapter from './process.ts';
import type { ServerAdapter } from './types.ts';

/** What an adapter package exports; at least the server factory. */
export interface AdapterModule {
  createServerAdapter(): ServerAdapter;
}

export interface RegisteredAdapter {
  adapter: ServerAdapter;
  builtin: boolean;
}

export interface AdapterRegistry {
  /** Registers (or, for an external type, replaces) the adapter the module creates. */
  register(module: AdapterModule, options?: { builtin?: boolean }): ServerAdapter;
  unregister(type: string): void;
  get(type: string): ServerAdapter | undefined;
  list(): RegisteredAdapter[];
}

/** The local coding-CLI runtimes: their environment (binary, version, login) is the machine's, so `boardroom doctor` reports it. */
export const LOCAL_RUNTIME_ADAPTER_MODULES: readonly AdapterModule[] = [
  claudeAdapter,
  codexAdapter,
  geminiAdapter,
  opencodeAdapter,
];
export const BUILTIN_ADAPTER_MODULES: readonly AdapterModule[] = [
  processAdapter,
  httpAdapter,
  ...LOCAL_RUNTIME_ADAPTER_MODULES,
];

// A package is foreign code: check the shape once here rather than fail mid-run in the engine.
function checkShape(adapter: unknown): ServerAdapter {
  const a = adapter as Partial<ServerAdapter> | null;
  const problems: string[] = [];
  if (!a || typeof a !== 'object') throw new Error('adapter module: createServerAdapter() returned no object');
  if (typeof a.type !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(a.type)) problems.push('type');
  if (typeof a.execute !== 'function') problems.push('execute()');
  if (typeof a.testEnvironment !== 'function') problems.push('testEnvironment()');
  if (!Array.isArray(a.models)) problems.push('models');
  if (typeof a.agentConfigurationDoc !== 'string') problems.push('agentConfigurationDoc');
  if (problems.length > 0) throw new Error(`adapter module: missing or invalid ${problems.join(', ')}`);
  if (typeof a.label === 'string') return a as ServerAdapter;
  // A default label on a wrapper whose prototype is the adapter: a class instance keeps the methods
  // its prototype holds (a spread copy would drop them), and the package's object is not mutated.
  return Object.assign(Object.create(a) as ServerAdapter, { label: a.type });
}

export function createAdapterRegistry(builtins: readonly AdapterModule[] = BUILTIN_ADAPTER_MODULES): AdapterRegistry {
  const entries = new Map<string, RegisteredAdapter>();
  const registry: AdapterRegistry = {
    register(module, options = {}) {
      const adapter = checkShape(module.createServerAdapter());
      if (entries.get(adapter.type)?.builtin)
        throw new Error(`adapter type ${adapter.type} is built in and cannot be replaced`);
      entries.set(adapter.type, { adapter, builtin: options.builtin ?? false });
      return adapter;
    },
    unregister(type) {
      if (entries.get(type)?.builtin) throw new Error(`adapter type ${type} is built in and cannot be removed`);
      entries.delete(type);
    },
    get: (type) => entries.get(type)?.adapter,
    list: () => [...entries.values()],
  };
  for (const module of builtins) registry.register(module, { builtin: true });
  return registry;
}

// Loaded into every test file's process by `npm test` (scripts/test.ts, which passes
// --expose-internals for it): each test and hook gets a timeout of BOARDROOM_TEST_TIMEOUT_MS unless it
// sets its own, so a hung test fails under its own name and its file goes on, instead of the whole run
// hanging until CI's limit.
//
// Why not node's `--test-timeout`: on Node 20 (and 22) it bounds each test *file* as a whole, and the
// failure names the file, not the test. node:test has no other default, and wrapping its exported
// `it` moves where node records a test as declared (its caller) into the wrapper, which renames
// every test's file in the reports. So the default is added where node creates a test or a hook,
// after it has recorded the caller: Test.prototype.createSubtest and createHook of its internal
// module. A suite (describe) keeps no timeout of its own (it would bound all its tests together), and
// a test whose parent has a timeout inherits that one, as node has it.
// Should a Node version change those internals, this file fails the run at once rather than leave
// tests without a bound.
import { createRequire } from 'node:module';

const TIMEOUT_MS = Number(process.env.BOARDROOM_TEST_TIMEOUT_MS);
// After the file's last test and hook: time for its report to reach the runner before a hung test's
// leftovers (timers, sockets) that keep its process alive are cut off.
const EXIT_GRACE_MS = 5_000;

type Options = { timeout?: number } | null | undefined;
interface TestClass {
  prototype: {
    createSubtest(factory: unknown, name: unknown, options: unknown, fn: unknown, overrides: unknown): unknown;
    createHook(name: string, fn: unknown, options: Options): unknown;
    run(...args: unknown[]): Promise<unknown>;
  };
}

if (Number.isFinite(TIMEOUT_MS) && TIMEOUT_MS > 0) {
  const internals = createRequire(import.meta.url)('internal/test_runner/test') as {
    Test?: TestClass;
    Suite?: unknown;
  };
  const proto = internals.Test?.prototype;
  if (
    !internals.Suite ||
    typeof proto?.createSubtest !== 'function' ||
    typeof proto.createHook !== 'function' ||
    typeof proto.run !== 'function'
  )
    throw new Error(
      'scripts/test-timeout.ts: node:test internals are not as on Node 20; the default test timeout cannot be set',
    );
  const createSubtest = proto.createSubtest;
  const createHook = proto.createHook;
  const run = proto.run;
  const withDefault = (options: Options) => ({ timeout: TIMEOUT_MS, ...options });
  // node's own argument shapes: (name, options, fn), (name, fn), (options, fn), (fn).
  proto.createSubtest = function (this: { timeout: number }, factory, name, options, fn, overrides) {
    // A test under a parent with a timeout of its own inherits it, as node has it.
    if (factory === internals.Suite || Number.isFinite(this.timeout))
      return createSubtest.call(this, factory, name, options, fn, overrides);
    if (typeof name === 'function') [name, options, fn] = [undefined, undefined, name];
    else if (typeof name === 'object' && name !== null) [name, options, fn] = [undefined, name, options];
    else if (typeof options === 'function') [options, fn] = [undefined, options];
    return createSubtest.call(this, factory, name, withDefault(options as Options), fn, overrides);
  };
  proto.createHook = function (name, fn, options) {
    return createHook.call(this, name, fn, withDefault(options));
  };
  // The root test's run ends once every test and hook of the file has (node's --test-force-exit ends
  // the process there too, but on Node 20 only for the runner and its children alike, and the runner
  // then exits before its reporters have written).
  proto.run = async function (this: { parent: unknown; hookType?: unknown }, ...args) {
    const result = await run.apply(this, args);
    // The root is the test without a parent that is not a hook (hooks have no parent either).
    if (this.parent === null && this.hookType === undefined) setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
    return result;
  };
}

// A second node:test reporter of `npm test` (scripts/test.ts): writes, as one JSON object at the end,
// which tests each file registered and which of them reported a result. A test file whose process
// ends early with status 0 (a stray process.exit, a dependency's exit hook) loses its remaining tests
// without a failure: node's summary just counts fewer. The runner compares the two and fails.
// Plain JavaScript: node loads reporters before the --import hooks that would compile TypeScript.
// The object written is scripts/test.ts's `Tally`.

/** @param {AsyncIterable<{ type: string, data: { name?: string, nesting?: number, file?: string } }>} source */
export default async function* tally(source) {
  /** Per file (absolute path): tests and suites registered, those that passed or failed (skips included), failures. */
  const files = {};
  // Registered minus reported, per (file, nesting, name): names repeat, so a count, not a set.
  const open = new Map();
  for await (const { type, data } of source) {
    if (type !== 'test:enqueue' && type !== 'test:pass' && type !== 'test:fail') continue;
    const file = data.file ?? '(no file)';
    files[file] ??= { registered: 0, reported: 0, failed: 0 };
    const entry = files[file];
    if (type === 'test:fail') entry.failed++;
    // The runner's own entry for a file (named by its path) is not a test of it.
    if (data.nesting === 0 && data.name === data.file) continue;
    const key = JSON.stringify([file, data.nesting, data.name]);
    const delta = type === 'test:enqueue' ? 1 : -1;
    if (delta === 1) entry.registered++;
    else entry.reported++;
    open.set(key, (open.get(key) ?? 0) + delta);
  }
  const unreported = [...open]
    .filter(([, count]) => count > 0)
    .map(([key]) => {
      const [file, , name] = JSON.parse(key);
      return { file, name };
    });
  yield `${JSON.stringify({ files, unreported })}\n`;
}

// One owner each (issue 17, section 2): agents.status is written only by the agent status state
// machine (src/core/agent-status.ts) and wakeup queue rows only by the queue (src/modules/wakeups/
// queue.ts). Reads src/ as text, so a write through drizzle (`.update(agents).set({ status ... })`,
// `.insert(agentWakeupRequests)`) and one in raw SQL (`update agents set status`, `delete from
// ${agentWakeupRequests}`) both count. Creating an agent (its first status, idle or
// pending_approval) is an insert, not a transition, and stays with agents/service.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { codeFilesUnder } from '../scripts/import-specifiers.ts';

const SRC = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'src');
const relative = (file: string) => path.relative(SRC, file).split(path.sep).join('/');
const sources = codeFilesUnder(SRC).map((file) => ({ file: relative(file), text: readFileSync(file, 'utf8') }));

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** `file:line` of every match of `pattern` whose statement (up to its `.where(`, `.returning(` or `;`) also matches `also`. */
function writesIn(pattern: RegExp, also?: RegExp): string[] {
  const found: string[] = [];
  for (const { file, text } of sources) {
    for (const match of text.matchAll(pattern)) {
      const rest = text.slice(match.index);
      const end = rest.search(/\.where\(|\.returning\(|;/);
      if (also && !also.test(rest.slice(0, end === -1 ? undefined : end))) continue;
      found.push(`${file}:${lineOf(text, match.index)}`);
    }
  }
  return found.sort();
}

const outside = (owner: string, found: string[]) => found.filter((where) => !where.startsWith(`${owner}:`));

describe('one writer each (issue 17, section 2)', () => {
  it('writes agents.status only in core/agent-status.ts', () => {
    const found = [
      // drizzle: .update(agents) ... .set({ ..., status: ... })
      ...writesIn(/\.update\(\s*agents\s*\)/g, /\.set\(\s*\{[^}]*\bstatus\b/),
      // raw SQL: update agents / update ${agents} ... set ... status
      ...writesIn(/update\s+(?:agents|\$\{agents\})\s+set\b/gi, /\bstatus\s*=/),
    ];
    assert.ok(
      found.some((where) => where.startsWith('core/agent-status.ts:')),
      'the owner itself is found (the patterns still match)',
    );
    assert.deepEqual(
      outside('core/agent-status.ts', found),
      [],
      'agents.status written outside core/agent-status.ts: send an event to transitionAgent instead',
    );
  });

  it('writes wakeup queue rows only in modules/wakeups/queue.ts', () => {
    const found = [
      ...writesIn(/\.(?:update|insert|delete)\(\s*agentWakeupRequests\s*\)/g),
      ...writesIn(/(?:update|insert\s+into|delete\s+from)\s+(?:agent_wakeup_requests|\$\{agentWakeupRequests\})/gi),
    ];
    assert.ok(
      found.some((where) => where.startsWith('modules/wakeups/queue.ts:')),
      'the owner itself is found (the patterns still match)',
    );
    assert.deepEqual(
      outside('modules/wakeups/queue.ts', found),
      [],
      'wakeup rows written outside modules/wakeups/queue.ts: call its writers instead',
    );
  });
});

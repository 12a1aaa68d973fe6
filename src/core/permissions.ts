// The checks every use case starts with, answering from the permission table
// (core/permission-table.ts): assertMay for a resource in hand, resourceFor and companyFor for a
// record a caller names (the kind refusal before it is read, then 404/403, then the row's
// conditions), permits for a yes/no without a refusal (redaction), allowedActions for a client that
// shows or hides controls, and permissionsMarkdown for the docs.
import type { DbOrTx } from '../db/client.ts';
import { assertCompanyAccess, requireCompanyAccess, type Company } from './access.ts';
import type { Actor, AgentActor, BoardActor, PluginActor } from './actor.ts';
import { callerAgent } from './agent-access.ts';
import { forbidden } from './errors.ts';
import {
  ACTIONS,
  ACTOR_KINDS,
  AGENT_CONDITIONS,
  BOARD_CONDITIONS,
  PLUGIN_CONDITIONS,
  type Action,
  type ActorFor,
  type AgentCondition,
  type BoardCondition,
  type Condition,
  type Facts,
  type FactsOf,
  type PluginCondition,
  type Row,
  type RowOf,
  type Rule,
} from './permission-table.ts';

export { ACTIONS, type Action, type ActorFor, type FactsOf } from './permission-table.ts';

/** The rule this actor meets for this action: the one place a column is chosen (issue 28 adds board roles here). */
function ruleFor(actor: Actor, row: Row): Rule<string> {
  return row[actor.kind];
}

function conditionHolds(actor: Actor, name: string, facts: Facts): boolean {
  if (actor.kind === 'agent') {
    const condition: Condition<AgentActor> | undefined = AGENT_CONDITIONS[name as AgentCondition];
    return condition?.holds(actor, facts) === true;
  }
  if (actor.kind === 'board') {
    const condition: Condition<BoardActor> | undefined = BOARD_CONDITIONS[name as BoardCondition];
    return condition?.holds(actor, facts) === true;
  }
  if (actor.kind === 'plugin') {
    const condition: Condition<PluginActor> | undefined = PLUGIN_CONDITIONS[name as PluginCondition];
    return condition?.holds(actor, facts) === true;
  }
  return false;
}

/** The actor, then (for a plugin) whoever caused its invocation: each must meet a row. */
function actingChain(actor: Actor): Actor[] {
  return actor.kind === 'plugin' && actor.cause ? [actor, actor.cause] : [actor];
}

/** Whether the actor meets the row: its own rule, and for a plugin its cause's rule too (grant ∩ cause). */
function meets(actor: Actor, row: Row, facts: Facts): boolean {
  return actingChain(actor).every((who) => {
    const rule = ruleFor(who, row);
    if (rule === 'always' || rule === 'never') return rule === 'always';
    return rule.some((condition) => conditionHolds(who, condition, facts));
  });
}

const readsCaller = (rule: Rule<string>) =>
  rule !== 'always' &&
  rule !== 'never' &&
  rule.some((c) => 'readsCaller' in (AGENT_CONDITIONS[c as AgentCondition] ?? {}));

/**
 * The table's answer inside a company the actor may access (the boundary is not checked here:
 * `assertMay` does both). Conditions that read the calling agent's row need `facts.caller`.
 */
export function permits<A extends Action>(actor: Actor, action: A, facts: FactsOf<A>): boolean;
export function permits(actor: Actor, action: Action, facts: Facts): boolean {
  return meets(actor, ACTIONS[action], facts);
}

/**
 * The check a use case starts with when it holds its resource already: 403 with the row's message
 * when the actor's kind may never do it, then the company boundary (403 another company's), then the
 * row's conditions (403). The calling agent's row is read only when a condition needs it. Returns
 * the actor as the kinds the row allows, so a board-user-only use case gets its BoardActor.
 */
export async function assertMay<A extends Action>(
  ctx: { db: DbOrTx; actor: Actor },
  action: A,
  facts: FactsOf<A>,
  details?: unknown,
): Promise<ActorFor<A>>;
export async function assertMay(
  ctx: { db: DbOrTx; actor: Actor },
  action: Action,
  facts: Facts,
  details?: unknown,
): Promise<Actor> {
  assertKindMay(ctx.actor, action, details);
  if (ACTIONS[action].scope === 'company') {
    // FactsOf requires it; a caller that cast its way past the type would otherwise skip the boundary.
    if (facts.companyId === undefined) throw new Error(`${action} was checked without its company`);
    await assertCompanyAccess(ctx.db, ctx.actor, facts.companyId);
  }
  await assertConditions(ctx, action, facts, details);
  return ctx.actor;
}

/**
 * 403 when the actor's kind may never take the action: what a use case refuses before it reads
 * anything (SPEC's board-only routes refuse an agent before looking the record up).
 */
export function assertKindMay<A extends Action>(actor: Actor, action: A, details?: unknown): ActorFor<A> {
  const row: Row = ACTIONS[action];
  if (actingChain(actor).some((who) => ruleFor(who, row) === 'never')) throw forbidden(row.denied, details);
  // The kinds the row allows are exactly ActorFor's.
  return actor as ActorFor<A>;
}

/**
 * A use case's record, once the caller may: the kind refusal before it is read, then `load` (which
 * answers 404 missing and 403, or 404 where SPEC hides it, for another company's), then the row's
 * conditions on the record's facts.
 */
export async function resourceFor<A extends Action, T>(
  ctx: { db: DbOrTx; actor: Actor },
  action: A,
  load: () => Promise<T>,
  factsOf: (record: T) => FactsOf<A>,
): Promise<T> {
  assertKindMay(ctx.actor, action);
  const record = await load();
  await assertMay(ctx, action, factsOf(record));
  return record;
}

type CompanyAction = { [A in Action]: RowOf<A>['scope'] extends 'company' ? A : never }[Action];

/**
 * A use case that starts from the company a caller named: the kind refusal first, then the company
 * (404 missing, 403 outside the caller's), then the row's conditions.
 */
export async function companyFor<A extends CompanyAction>(
  ctx: { db: DbOrTx; actor: Actor },
  action: A,
  companyId: string,
  facts: Omit<FactsOf<A>, 'companyId'>,
): Promise<Company> {
  assertKindMay(ctx.actor, action);
  const company = await requireCompanyAccess(ctx.db, ctx.actor, companyId);
  await assertConditions(ctx, action, { ...(facts as Facts), companyId: company.id });
  return company;
}

/** The row's conditions for this actor (its kind and the boundary already passed). */
async function assertConditions(
  ctx: { db: DbOrTx; actor: Actor },
  action: Action,
  facts: Facts,
  details?: unknown,
): Promise<void> {
  const { actor } = ctx;
  const row: Row = ACTIONS[action];
  const needsCaller = facts.caller === undefined && actingChain(actor).some((who) => readsCaller(ruleFor(who, row)));
  const withCaller = needsCaller ? { ...facts, caller: await callerAgent(ctx.db, actor) } : facts;
  if (!meets(actor, row, withCaller)) throw forbidden(row.denied, details);
}

/** The actions this actor may take on a resource described by `facts` (inside a company it may access). */
export function allowedActions(actor: Actor, facts: Facts): Action[] {
  return (Object.keys(ACTIONS) as Action[]).filter((action) => permits(actor, action, facts as FactsOf<typeof action>));
}

const ruleText = (rule: Rule<string>) =>
  rule === 'always' ? 'always' : rule === 'never' ? '-' : rule.map((c) => `\`${c}\``).join(' or ');

/** The table as markdown, for docs/api.md and the OpenAPI description: one row per action, then the conditions. */
export function permissionsMarkdown(): string {
  const rows = (Object.entries(ACTIONS) as [Action, Row][]).map(
    ([action, row]) =>
      `| \`${action}\` | ${row.scope} | ${ACTOR_KINDS.map((kind) => ruleText(row[kind])).join(' | ')} | ${row.self ?? ''} |`,
  );
  const conditions = [
    ...Object.entries(AGENT_CONDITIONS).map(([name, c]) => `- \`${name}\` (agent): ${c.means}.`),
    ...Object.entries(BOARD_CONDITIONS).map(([name, c]) => `- \`${name}\` (board): ${c.means}.`),
    ...Object.entries(PLUGIN_CONDITIONS).map(([name, c]) => `- \`${name}\` (plugin): ${c.means}.`),
  ];
  return [
    `| action | scope | ${ACTOR_KINDS.join(' | ')} | \`self\` is |`,
    `|---|---|${ACTOR_KINDS.map(() => '---|').join('')}---|`,
    ...rows,
    '',
    'Conditions (one of those listed must hold; `-` is never). A plugin meets a row when its condition holds and, when a board user or agent caused the call, that caller meets the same row:',
    '',
    ...conditions,
  ].join('\n');
}

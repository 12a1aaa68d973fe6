// Who may do what: the one table of actions (SPEC section 4's "Who" cells and section 5's role
// rules), per actor kind. Every use case asks it at its start through its area's policy.ts, so a
// caller with no route in front of it (the engine, the MCP server, plugin workers) meets the same
// rule as an HTTP client.
//
// A row names an action (`agent.pause`) and, per actor kind, a rule: `always`, `never`, or the
// conditions of which one must hold (`['self', 'ceo']`). Conditions read facts about the resource
// (the agent it is about, the company) and, for permission flags, the calling agent's own row.
// Every company-scoped action also passes the company boundary (core/access.ts) first.
//
// Kinds: `board` (users), `agent`, `system` (the server's own loops: always, except where an action
// belongs to a user's or an agent's own identity) and `plugin`, which issue 27 gives an actor; it
// holds no action yet. Issue 28 (board roles owner/admin/operator/viewer) refines the `board`
// column: `ruleFor` is the one place that picks a column for an actor, so a per-role rule replaces
// `board` there and in the `Row` type, and nothing else changes.
//
// The table is rendered into docs/api.md and the OpenAPI description (`permissionsMarkdown`);
// `allowedActions` lists what an actor may do with a resource, for a client that shows or hides controls.
import type { DbOrTx } from '../db/client.ts';
import type { Agent } from '../db/rows.ts';
import { assertCompanyAccess, requireCompanyAccess, type Company } from './access.ts';
import { isCeoOf, type Actor, type AgentActor, type BoardActor } from './actor.ts';
import { callerAgent, taskAccess } from './agent-access.ts';
import { forbidden } from './errors.ts';

export const ACTOR_KINDS = ['board', 'agent', 'system', 'plugin'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** What a condition may read. `companyId` is the company the action happens in. */
export interface Facts {
  companyId?: string;
  /** The agent the action is about (the row's `self` note says which): `self` holds when it is the caller. */
  agentId?: string | null;
  /** The run the action is about, with `agentId` its agent: `runToken` holds for that run's own JWT. */
  runId?: string;
  /** The calling agent's row, for its permission flags: loaded by `assertMay` when a condition needs it. */
  caller?: Agent | null;
}

interface Condition<A extends Actor> {
  /** What the condition means, as the docs list it. */
  means: string;
  holds: (actor: A, facts: Facts) => boolean;
  /** The condition reads the calling agent's row (`facts.caller`). */
  readsCaller?: true;
}

const callerOf = (actor: AgentActor, facts: Facts) =>
  facts.caller && facts.caller.id === actor.agentId && facts.caller.companyId === facts.companyId ? facts.caller : null;

export const AGENT_CONDITIONS = {
  self: {
    means: 'the agent the action is about is the caller (see the note)',
    holds: (actor, facts) => facts.agentId === actor.agentId,
  },
  ceo: {
    means: "the caller is the company's CEO agent (`role: ceo`)",
    holds: (actor, facts) => facts.companyId !== undefined && isCeoOf(actor, facts.companyId),
  },
  agentCreator: {
    means: 'the caller holds `permissions.canCreateAgents`',
    holds: (actor, facts) => callerOf(actor, facts)?.permissions.canCreateAgents === true,
    readsCaller: true,
  },
  taskAssigner: {
    means: 'the caller may assign tasks (a `canAssignTasks` grant, `role: ceo` or `permissions.canCreateAgents`)',
    holds: (actor, facts) => {
      const caller = callerOf(actor, facts);
      return caller !== null && taskAccess(caller).canAssignTasks;
    },
    readsCaller: true,
  },
  runToken: {
    means: "the caller authenticates with the run's own JWT",
    holds: (actor, facts) =>
      actor.via === 'agent_jwt' && actor.runId === facts.runId && actor.agentId === facts.agentId,
  },
} as const satisfies Record<string, Condition<AgentActor>>;

export const BOARD_CONDITIONS = {
  instanceOwner: { means: 'the caller is the instance owner', holds: (actor) => actor.isInstanceOwner },
} as const satisfies Record<string, Condition<BoardActor>>;

export type AgentCondition = keyof typeof AGENT_CONDITIONS;
export type BoardCondition = keyof typeof BOARD_CONDITIONS;
export type Rule<C extends string = never> = 'always' | 'never' | readonly C[];

interface Row {
  /** `company`: the action happens inside one company, whose boundary is checked first. */
  scope: 'company' | 'instance';
  board: Rule<BoardCondition>;
  agent: Rule<AgentCondition>;
  system: Rule;
  plugin: Rule;
  /** The 403 message of a refusal. */
  denied: string;
  /** Who `self` is for this action, when the agent rule names it. */
  self?: string;
}

const BOARD_ONLY = 'board access required';
// Shorthands for the common rows; each row below still says every kind.
/** Any caller with access to the company (the boundary is the only refusal; plugins have no action yet). */
const anyCaller = {
  scope: 'company',
  board: 'always',
  agent: 'always',
  system: 'always',
  plugin: 'never',
  denied: 'not open to this kind of caller',
} as const;
const boardOnly = {
  scope: 'company',
  board: 'always',
  agent: 'never',
  system: 'always',
  plugin: 'never',
  denied: BOARD_ONLY,
} as const;
/** Board users, the system, and agents meeting one of `conditions`. */
const boardOr = <const C extends readonly AgentCondition[]>(...conditions: C) =>
  ({ scope: 'company', board: 'always', agent: conditions, system: 'always', plugin: 'never' }) as const;
/** Tied to a board user's own identity: no system actor. */
const boardUserOnly = { ...boardOnly, system: 'never' } as const;
const MANAGE_AGENTS = 'only the board or the company CEO agent may';
const HIRE_GRANT_DENIED = 'an agent may not hire a CEO, and only the CEO may grant canCreateAgents';

export const ACTIONS = {
  // Companies (SPEC "Companies")
  'company.list': { ...boardUserOnly, scope: 'instance' },
  'company.stats': { ...boardUserOnly, scope: 'instance' },
  'company.create': { ...boardOnly, scope: 'instance' },
  'company.update': { ...boardOr('ceo'), denied: 'only the board or the company CEO agent may update the company' },
  'company.updateSettings': {
    ...boardOnly,
    denied: 'a CEO agent may change branding fields only',
  },
  'company.brand': { ...boardOr('ceo'), denied: 'only the board or the company CEO agent may change branding' },
  'company.uploadLogo': anyCaller,
  'company.archive': boardOnly,
  'company.delete': boardOnly,
  'company.setBudget': boardOnly,
  'company.export': anyCaller,
  'company.exportBundle': {
    ...boardOr('ceo'),
    denied: "only the board or the company's CEO agent may use this export",
  },
  'company.importInto': {
    ...boardOr('ceo'),
    denied: "only the board or the company's CEO agent may import into the company",
  },
  'company.import': { ...boardOnly, scope: 'instance' },
  'company.importFromServerPath': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: "a `path` source reads the server's disk: only the instance owner may use it (send the files inline)",
  },
  'company.readFeedback': boardOnly,

  // Agents (SPEC "Agents")
  'agent.create': boardOnly,
  'agent.hire': {
    ...boardOr('ceo', 'agentCreator'),
    denied: 'hiring needs the board, the company CEO agent or permissions.canCreateAgents',
  },
  'agent.hireCeo': { ...boardOnly, denied: HIRE_GRANT_DENIED },
  'agent.hireAgentCreator': { ...boardOr('ceo'), denied: HIRE_GRANT_DENIED },
  'agent.readConfig': {
    ...boardOr('self', 'ceo', 'agentCreator'),
    denied: "the agent's configuration is redacted for this caller",
    self: 'the agent read',
  },
  'agent.readSelf': {
    scope: 'instance',
    board: 'never',
    agent: 'always',
    system: 'never',
    plugin: 'never',
    denied: 'agent authentication required',
  },
  'agent.update': {
    ...boardOr('self', 'ceo'),
    denied: 'only the board, the company CEO agent or the agent itself may update an agent',
    self: 'the agent updated',
  },
  'agent.reorganize': {
    ...boardOr('ceo'),
    denied: 'an agent may not change its own status, role or reportsTo',
  },
  'agent.setPermissions': { ...boardOr('ceo'), denied: `${MANAGE_AGENTS} change agent permissions` },
  'agent.setBudget': { ...boardOr('ceo'), denied: `${MANAGE_AGENTS} change agent budgets` },
  'agent.pause': { ...boardOr('ceo'), denied: `${MANAGE_AGENTS} pause agents` },
  'agent.resume': { ...boardOr('ceo'), denied: `${MANAGE_AGENTS} resume agents` },
  'agent.terminate': { ...boardOr('ceo'), denied: `${MANAGE_AGENTS} terminate agents` },
  'agent.delete': boardOnly,
  'agent.listKeys': {
    ...boardOr('self'),
    denied: 'only the board or the agent itself may list its keys',
    self: 'the agent whose keys are listed',
  },
  'agent.createKey': boardOnly,
  'agent.revokeKey': boardOnly,
  'agent.rotateSigningSecret': boardOnly,
  'agent.wake': {
    ...boardOr('self'),
    denied: 'only the board or the agent itself may wake an agent',
    self: 'the agent woken',
  },
  'agent.syncSkills': {
    ...boardOr('self', 'ceo'),
    denied: "only the board, the CEO agent or the agent itself may set an agent's skills",
    self: 'the agent whose skills are set',
  },

  // Issues, comments, documents, attachments (SPEC "Issues")
  'issue.create': anyCaller,
  'issue.update': anyCaller,
  'issue.assign': {
    ...boardOr('taskAssigner', 'self'),
    denied: 'assigning issues needs task-assignment permission (an agent may only assign an issue to itself)',
    self: 'the agent taking the issue, or dropping its own assignment (never a user assignee)',
  },
  'issue.filterByMe': {
    ...boardUserOnly,
    scope: 'instance',
    denied: '`me` in user filters needs board authentication',
  },
  'issue.checkout': {
    ...boardOr('self'),
    denied: 'an agent may only check out issues as itself',
    self: 'the agent the issue is checked out for',
  },
  'issue.release': {
    ...boardOr('self'),
    denied: 'only the assignee may release this issue',
    self: "the issue's assignee",
  },
  'issue.comment': anyCaller,
  'issue.interrupt': { ...boardOnly, denied: 'only board users may interrupt a run' },
  'issue.putDocument': anyCaller,
  'issue.deleteDocument': boardOnly,
  'issue.attach': anyCaller,
  'issue.deleteAttachment': {
    ...boardOr('self'),
    denied: 'only the board or the uploading agent may delete this attachment',
    self: 'the agent that uploaded the file',
  },

  // Goals, projects and workspaces: any caller with access to the company
  'goal.create': anyCaller,
  'goal.update': anyCaller,
  'goal.delete': anyCaller,
  'project.create': anyCaller,
  'project.update': anyCaller,
  'project.delete': anyCaller,
  'project.createWorkspace': anyCaller,
  'project.updateWorkspace': anyCaller,
  'project.deleteWorkspace': anyCaller,
  'project.controlRuntimeServices': anyCaller,

  // Approvals (SPEC "Approvals")
  'approval.create': anyCaller,
  'approval.requestAs': {
    ...boardOr('self'),
    denied: 'an agent may only request approvals as itself',
    self: 'the agent named as requester',
  },
  'approval.decide': boardUserOnly,
  'approval.resubmit': {
    ...boardOr('self'),
    denied: 'only the requesting agent or the board may resubmit this approval',
    self: 'the agent that requested the approval',
  },
  'approval.comment': anyCaller,

  // Routines (SPEC "Routines" rule 5); a public trigger fires on its signature, with no actor
  'routine.create': anyCaller,
  'routine.assign': {
    ...boardOr('self'),
    denied: 'an agent may assign a routine only to itself',
    self: 'the new assignee',
  },
  'routine.update': {
    ...boardOr('self'),
    denied: 'agents manage only their own routines',
    self: "the routine's assignee",
  },
  'routine.addTrigger': {
    ...boardOr('self'),
    denied: 'agents manage only their own routines',
    self: "the routine's assignee",
  },
  'routine.updateTrigger': {
    ...boardOr('self'),
    denied: 'agents manage only their own routines',
    self: "the routine's assignee",
  },
  'routine.deleteTrigger': {
    ...boardOr('self'),
    denied: 'agents manage only their own routines',
    self: "the routine's assignee",
  },
  'routine.rotateSecret': {
    ...boardOr('self'),
    denied: 'agents manage only their own routines',
    self: "the routine's assignee",
  },
  'routine.fire': {
    ...boardOr('self'),
    denied: 'agents manage only their own routines',
    self: "the routine's assignee",
  },

  // Runs
  'run.cancel': { ...boardOr('self'), denied: 'an agent may cancel only its own runs', self: "the run's agent" },
  'run.complete': {
    scope: 'company',
    board: 'never',
    agent: ['runToken'],
    system: 'never',
    plugin: 'never',
    denied: "only the run's own token (the runToken of its request) may complete it",
  },

  // Skills (SPEC "Skills": mutating routes need canCreateAgents)
  'skill.create': {
    ...boardOr('agentCreator'),
    denied: 'changing skills needs the board or permissions.canCreateAgents',
  },
  'skill.import': {
    ...boardOr('agentCreator'),
    denied: 'changing skills needs the board or permissions.canCreateAgents',
  },
  'skill.scanProjects': {
    ...boardOr('agentCreator'),
    denied: 'changing skills needs the board or permissions.canCreateAgents',
  },
  'skill.updateFile': {
    ...boardOr('agentCreator'),
    denied: 'changing skills needs the board or permissions.canCreateAgents',
  },
  'skill.installUpdate': {
    ...boardOr('agentCreator'),
    denied: 'changing skills needs the board or permissions.canCreateAgents',
  },
  'skill.delete': {
    ...boardOr('agentCreator'),
    denied: 'changing skills needs the board or permissions.canCreateAgents',
  },

  // Secrets (SPEC "Secrets": board only)
  'secret.read': boardOnly,
  'secret.create': boardOnly,
  'secret.update': boardOnly,
  'secret.rotate': boardOnly,
  'secret.delete': boardOnly,

  // Costs, budgets, finance
  'cost.report': {
    ...boardOr('self'),
    denied: 'an agent reports costs only for itself',
    self: 'the agent the cost is reported for',
  },
  'cost.readQuotaWindows': boardOnly,
  'budget.createPolicy': boardOnly,
  'budget.updatePolicy': boardOnly,
  'budget.resolveIncident': boardUserOnly,
  'finance.record': boardOnly,
  'finance.read': boardOnly,

  // Activity, inbox
  'activity.create': boardOnly,
  'inbox.read': boardUserOnly,
  'inbox.markRead': boardUserOnly,
  'inbox.readLite': {
    scope: 'instance',
    board: 'never',
    agent: 'always',
    system: 'never',
    plugin: 'never',
    denied: 'agent authentication required',
  },

  // The instance: adapters (SPEC "Adapters"), board keys, diagnostics
  'adapter.read': { ...boardOnly, scope: 'instance' },
  'adapter.install': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: 'only the instance owner manages adapters',
  },
  'adapter.configure': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: 'only the instance owner manages adapters',
  },
  'adapter.override': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: 'only the instance owner manages adapters',
  },
  'adapter.remove': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: 'only the instance owner manages adapters',
  },
  'adapter.reload': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: 'only the instance owner manages adapters',
  },
  'adapter.reinstall': {
    scope: 'instance',
    board: ['instanceOwner'],
    agent: 'never',
    system: 'always',
    plugin: 'never',
    denied: 'only the instance owner manages adapters',
  },
  'instance.doctor': { ...boardOnly, scope: 'instance' },
  'instance.whoAmI': { ...boardUserOnly, scope: 'instance' },
  'boardKey.read': { ...boardUserOnly, scope: 'instance' },
  'boardKey.create': { ...boardUserOnly, scope: 'instance' },
  'boardKey.revoke': { ...boardUserOnly, scope: 'instance' },
} as const satisfies Record<string, Row>;

export type Action = keyof typeof ACTIONS;
type RowOf<A extends Action> = (typeof ACTIONS)[A];

// Distributes over a union of actions: a check shared by several actions gets what all of them read.
type ConditionsOf<A extends Action> = A extends Action
  ?
      | (RowOf<A>['agent'] extends readonly (infer C)[] ? C : never)
      | (RowOf<A>['board'] extends readonly (infer C)[] ? C : never)
  : never;
/** The facts each condition reads (`object`: none beyond the company). */
interface ConditionFacts {
  self: { agentId: string | null };
  ceo: object;
  agentCreator: object;
  taskAssigner: object;
  runToken: { runId: string; agentId: string };
  instanceOwner: object;
}
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** What a check of action A must be given: the company for company-scoped actions, and what its conditions read. */
export type FactsOf<A extends Action> = (RowOf<A>['scope'] extends 'company' ? { companyId: string } : unknown) &
  Intersection<ConditionFacts[ConditionsOf<A> & keyof ConditionFacts]> & { caller?: Agent | null };

type AllowedKinds<A extends Action> = {
  [K in Actor['kind']]: RowOf<A>[K] extends 'never' ? never : K;
}[Actor['kind']];
/** The actor as a kind action A allows: a board-user-only action hands back a BoardActor. */
export type ActorFor<A extends Action> = Extract<Actor, { kind: AllowedKinds<A> }>;

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
  return false;
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
  const rule = ruleFor(actor, ACTIONS[action]);
  if (rule === 'always' || rule === 'never') return rule === 'always';
  return rule.some((condition) => conditionHolds(actor, condition, facts));
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
  if (ruleFor(actor, row) === 'never') throw forbidden(row.denied, details);
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
  const rule = ruleFor(actor, row);
  if (rule === 'always' || rule === 'never') return;
  const withCaller =
    facts.caller === undefined && readsCaller(rule) ? { ...facts, caller: await callerAgent(ctx.db, actor) } : facts;
  if (!rule.some((condition) => conditionHolds(actor, condition, withCaller))) throw forbidden(row.denied, details);
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
  ];
  return [
    `| action | scope | ${ACTOR_KINDS.join(' | ')} | \`self\` is |`,
    `|---|---|${ACTOR_KINDS.map(() => '---|').join('')}---|`,
    ...rows,
    '',
    'Conditions (one of those listed must hold; `-` is never):',
    '',
    ...conditions,
  ].join('\n');
}

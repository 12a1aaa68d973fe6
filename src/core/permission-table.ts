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
// belongs to a user's or an agent's own identity) and `plugin` (a plugin worker's host call, issue 27),
// whose conditions are capabilities: it meets a row when the company's consented grant holds one of
// them and, when the invocation has a cause (the board user or agent behind it), that cause meets the
// same row. What is never grantable (approvals, budgets, secret values, keys, members, plugin and
// adapter management) is `never` in its column. Issue 28 (board roles owner/admin/operator/viewer) refines the `board`
// column: `ruleFor` (core/permissions.ts) is the one place that picks a column for an actor, so a
// per-role rule replaces `board` there and in the `Row` type, and nothing else changes.
//
// The checks that answer from it are core/permissions.ts; the table is rendered into docs/api.md and
// the OpenAPI description (permissionsMarkdown there).
import type { Agent } from '../db/rows.ts';
import { isCeoOf, type Actor, type AgentActor, type BoardActor, type PluginActor } from './actor.ts';
import { taskAccess } from './agent-access.ts';

export const ACTOR_KINDS = ['board', 'agent', 'system', 'plugin'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** What a condition may read. `companyId` is the company the action happens in. */
export interface Facts {
  companyId?: string;
  /** The agent the action is about (the row's `self` says which): `self` holds when it is the caller. */
  agentId?: string | null;
  /** The run the action is about, with `agentId` its agent: `runToken` holds for that run's own JWT. */
  runId?: string;
  /** The calling agent's row, for its permission flags: loaded by `assertMay` when a condition needs it. */
  caller?: Agent | null;
}

export interface Condition<A extends Actor> {
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
    means: "the agent the action is about (the table's last column) is the caller",
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

const granted = (capability: string, means: string): Condition<PluginActor> => ({
  means,
  holds: (actor) => actor.capabilities.includes(capability),
});

/** A plugin's conditions: the capabilities (src/modules/plugins/capabilities.ts) that open a row to it. */
export const PLUGIN_CONDITIONS = {
  'issues.read': granted('issues.read', 'the company granted the plugin `issues.read`'),
  'issues.write': granted('issues.write', 'the company granted the plugin `issues.write` (never status or assignee)'),
  'issues.status': granted('issues.status', "the company granted the plugin `issues.status` (an issue's status)"),
  'comments.read': granted('comments.read', 'the company granted the plugin `comments.read`'),
  'comments.write': granted('comments.write', 'the company granted the plugin `comments.write` (mentions wake nobody)'),
  'documents.read': granted('documents.read', 'the company granted the plugin `documents.read`'),
  'documents.write': granted('documents.write', 'the company granted the plugin `documents.write`'),
  'projects.read': granted('projects.read', 'the company granted the plugin `projects.read`'),
  'agents.read': granted('agents.read', 'the company granted the plugin `agents.read`'),
  'agents.wake': granted('agents.wake', 'the company granted the plugin `agents.wake` (under the budget rules)'),
  'goals.read': granted('goals.read', 'the company granted the plugin `goals.read`'),
  'routines.read': granted('routines.read', 'the company granted the plugin `routines.read`'),
  'activity.read': granted('activity.read', 'the company granted the plugin `activity.read`'),
  'costs.read': granted('costs.read', 'the company granted the plugin `costs.read`'),
} as const satisfies Record<string, Condition<PluginActor>>;

export type AgentCondition = keyof typeof AGENT_CONDITIONS;
export type BoardCondition = keyof typeof BOARD_CONDITIONS;
export type PluginCondition = keyof typeof PLUGIN_CONDITIONS;
export type Rule<C extends string = never> = 'always' | 'never' | readonly C[];

export interface Row {
  /** `company`: the action happens inside one company, whose boundary is checked first. */
  scope: 'company' | 'instance';
  board: Rule<BoardCondition>;
  agent: Rule<AgentCondition>;
  system: Rule;
  /** Capabilities, one of which the plugin's grant must hold (its cause then meets the same row). */
  plugin: Rule<PluginCondition>;
  /** The 403 message of a refusal. */
  denied: string;
  /** Who `self` is for this action, when the agent rule names it. */
  self?: string;
}

const BOARD_ONLY = 'board access required';
// Shorthands for the common rows; each row below still says every kind.
/** Any caller with access to the company (the boundary is the only refusal); plugins: `withGrant`. */
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
/** A plugin whose grant holds one of `capabilities` (and whose cause meets the row). */
const withGrant = <const C extends readonly PluginCondition[]>(...capabilities: C) =>
  ({ plugin: capabilities }) as const;
/** A read any caller with access to the company may make: the host API asks it before a plugin reads. */
const readWith = (capability: PluginCondition) => ({ ...anyCaller, ...withGrant(capability) }) as const;
/** Tied to a board user's own identity: no system actor. */
const boardUserOnly = { ...boardOnly, system: 'never' } as const;
/** Only the calling agent itself: its own row and inbox. */
const agentOnly = {
  scope: 'instance',
  board: 'never',
  agent: 'always',
  system: 'never',
  plugin: 'never',
  denied: 'agent authentication required',
} as const;
/** Changing the adapter registry runs foreign code inside the server: the instance owner's alone. */
const instanceOwnerOnly = {
  scope: 'instance',
  board: ['instanceOwner'],
  agent: 'never',
  system: 'always',
  plugin: 'never',
  denied: 'only the instance owner manages adapters',
} as const;
/** Plugins are other people's code on the instance: installing and upgrading them is the instance owner's alone. */
const pluginOwnerOnly = { ...instanceOwnerOnly, denied: 'only the instance owner manages plugins' } as const;
const MANAGE_AGENTS = 'only the board or the company CEO agent may';
const HIRE_GRANT_DENIED = 'an agent may not hire a CEO, and only the CEO may grant canCreateAgents';
const ownRoutine = {
  ...boardOr('self'),
  denied: 'agents manage only their own routines',
  self: "the routine's assignee",
} as const;
const manageSkills = {
  ...boardOr('agentCreator'),
  denied: 'changing skills needs the board or permissions.canCreateAgents',
} as const;

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
  'agent.readSelf': agentOnly,
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
    ...withGrant('agents.wake'),
    denied: 'only the board or the agent itself may wake an agent',
    self: 'the agent woken',
  },
  'agent.syncSkills': {
    ...boardOr('self', 'ceo'),
    denied: "only the board, the CEO agent or the agent itself may set an agent's skills",
    self: 'the agent whose skills are set',
  },

  // Issues, comments, documents, attachments (SPEC "Issues")
  'issue.create': { ...anyCaller, ...withGrant('issues.write') },
  // The host API lets `issues.write` change no status and `issues.status` nothing but the status.
  'issue.update': { ...anyCaller, ...withGrant('issues.write', 'issues.status') },
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
  'issue.comment': { ...anyCaller, ...withGrant('comments.write') },
  'issue.interrupt': { ...boardOnly, denied: 'only board users may interrupt a run' },
  'issue.putDocument': { ...anyCaller, ...withGrant('documents.write') },
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

  // Labels (SPEC: "not shown"; docs/api.md): deleting strips the label from every issue at once
  'label.read': anyCaller,
  'label.create': anyCaller,
  'label.update': anyCaller,
  'label.delete': { ...boardOr('ceo'), denied: "only the board or the company's CEO agent may delete labels" },

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
  'routine.update': ownRoutine,
  'routine.addTrigger': ownRoutine,
  'routine.updateTrigger': ownRoutine,
  'routine.deleteTrigger': ownRoutine,
  'routine.rotateSecret': ownRoutine,
  'routine.fire': ownRoutine,

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
  'skill.create': manageSkills,
  'skill.import': manageSkills,
  'skill.scanProjects': manageSkills,
  'skill.updateFile': manageSkills,
  'skill.installUpdate': manageSkills,
  'skill.delete': manageSkills,

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
  'inbox.readLite': agentOnly,

  // The instance: adapters (SPEC "Adapters"), board keys, diagnostics
  'adapter.read': { ...boardOnly, scope: 'instance' },
  'adapter.install': instanceOwnerOnly,
  'adapter.configure': instanceOwnerOnly,
  'adapter.override': instanceOwnerOnly,
  'adapter.remove': instanceOwnerOnly,
  'adapter.reload': instanceOwnerOnly,
  'adapter.reinstall': instanceOwnerOnly,
  // Plugins (SPEC "Plugins", issue 27): the instance owner installs them, each company's board consents
  'plugin.read': { ...boardOnly, scope: 'instance' },
  'plugin.manage': pluginOwnerOnly,
  'plugin.mountFolder': {
    ...pluginOwnerOnly,
    denied: "a local folder exposes the server's disk to a plugin: only the instance owner mounts one",
  },
  'plugin.readCompany': boardOnly,
  'plugin.consent': boardUserOnly,
  // A company's plugin config, and the UI's data and actions (caused by a board user, whose rights bound the worker's)
  'plugin.configure': boardOnly,
  'plugin.useUi': boardUserOnly,
  // Plugin tools: listed for the company's board and agents; an agent executes them only as itself
  'plugin.listTools': anyCaller,
  'plugin.executeTool': {
    ...boardOr('self'),
    denied: 'an agent executes plugin tools only as itself',
    self: 'the agent of `runContext.agentId`',
  },
  // What a plugin reads through its host calls (routes read with the company boundary alone, which
  // these rows' board, agent and system columns repeat): the capability, intersected with the cause.
  'issue.read': readWith('issues.read'),
  'comment.read': readWith('comments.read'),
  'document.read': readWith('documents.read'),
  'project.read': readWith('projects.read'),
  'agent.read': readWith('agents.read'),
  'goal.read': readWith('goals.read'),
  'routine.read': readWith('routines.read'),
  'activity.read': readWith('activity.read'),
  'cost.read': readWith('costs.read'),
  'plugin.readJobs': boardOnly,
  'plugin.triggerJob': boardOnly,
  'instance.doctor': { ...boardOnly, scope: 'instance' },
  'instance.whoAmI': { ...boardUserOnly, scope: 'instance' },
  'boardKey.read': { ...boardUserOnly, scope: 'instance' },
  'boardKey.create': { ...boardUserOnly, scope: 'instance' },
  'boardKey.revoke': { ...boardUserOnly, scope: 'instance' },
} as const satisfies Record<string, Row>;

export type Action = keyof typeof ACTIONS;
export type RowOf<A extends Action> = (typeof ACTIONS)[A];

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

// Permissions are decided in the use cases, not in the routes (issue 25, section 2): the engine, the
// MCP server and plugin workers call services with no route in front of them. Each row below calls
// one service entry point directly (no HTTP) on a real database, as
//   (a) the most privileged agent of another company (its CEO, allowed to create agents), and
//   (b) an agent of the same company lacking the permission (where the table refuses one),
// and expects the service itself to refuse: a 403 (404 where SPEC hides existence) DomainError,
// with the permission table's own message for (b). A new entry point is one row; an action of the
// table with no row (and not listed as a read) fails the coverage test.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { AgentActor, Actor } from '../src/core/actor.ts';
import type { Ctx } from '../src/core/context.ts';
import { DomainError } from '../src/core/errors.ts';
import { ACTIONS, allowedActions, permissionsMarkdown, type Action } from '../src/core/permissions.ts';
import { API_DOC, withPermissionTable } from '../scripts/permissions-doc.ts';
import { readFileSync } from 'node:fs';
import { localStorage } from '../src/storage/storage.ts';
import type { Company } from '../src/core/access.ts';
import {
  archiveCompany,
  companyStats,
  createCompany,
  deleteCompany,
  listCompanies,
  setCompanyBudget,
  updateBranding,
  updateCompany,
  uploadLogo,
} from '../src/modules/companies/service.ts';
import { hireAgent } from '../src/modules/agents/hires.ts';
import { createKey, listKeys, revokeKey } from '../src/modules/agents/keys.ts';
import { deleteAgent, pauseAgent, resumeAgent, terminateAgent } from '../src/modules/agents/lifecycle.ts';
import { createAgentBody, hireAgentBody, wakeupBody } from '../src/modules/agents/schemas.ts';
import { createAgent, updateAgent, updateBudget, updatePermissions } from '../src/modules/agents/service.ts';
import { rotateSigningSecret } from '../src/modules/agents/signing-secret.ts';
import { requestWakeup } from '../src/modules/agents/wakeup.ts';
import { syncAgentSkills } from '../src/modules/skills/agent-skills.ts';
import { findAgentById } from '../src/core/agent-access.ts';
import type { Agent } from '../src/db/rows.ts';
import { randomUUID } from 'node:crypto';
import { addApprovalComment } from '../src/modules/approvals/comments.ts';
import { createApproval } from '../src/modules/approvals/create.ts';
import { decideApproval, resubmitApproval } from '../src/modules/approvals/service.ts';
import { findIssue } from '../src/core/issue-access.ts';
import type { Issue } from '../src/db/rows.ts';
import { deleteAttachment, addAttachment } from '../src/modules/attachments/service.ts';
import { createComment } from '../src/modules/comments/service.ts';
import { putDocumentBody } from '../src/modules/documents/schemas.ts';
import { deleteDocument, putDocument } from '../src/modules/documents/service.ts';
import { checkoutIssue, releaseIssue } from '../src/modules/issues/checkout.ts';
import { listIssues } from '../src/modules/issues/list.ts';
import { createIssueBody, listIssuesQuery, patchIssueBody } from '../src/modules/issues/schemas.ts';
import { createIssue } from '../src/modules/issues/service.ts';
import { updateIssue } from '../src/modules/issues/update.ts';
import type { Goal, Project } from '../src/db/rows.ts';
import { createGoalBody, patchGoalBody } from '../src/modules/goals/schemas.ts';
import { createGoal, deleteGoal, findGoal, updateGoal } from '../src/modules/goals/service.ts';
import { createLabel, deleteLabel, listLabels, updateLabel } from '../src/modules/labels/service.ts';
import {
  createProjectBody,
  patchProjectBody,
  patchWorkspaceBody,
  workspaceBody,
} from '../src/modules/projects/schemas.ts';
import { createProject, deleteProject, updateProject } from '../src/modules/projects/service.ts';
import {
  createWorkspace,
  deleteWorkspace,
  runWorkspaceAction,
  updateWorkspace,
} from '../src/modules/projects/workspaces.ts';
import { projects } from '../src/db/schema/index.ts';
import { eq } from 'drizzle-orm';
import { routines, routineTriggers } from '../src/db/schema/index.ts';
import { runRoutine } from '../src/modules/routines/fire.ts';
import {
  createRoutineBody,
  createTriggerBody,
  patchRoutineBody,
  patchTriggerBody,
  runRoutineBody,
} from '../src/modules/routines/schemas.ts';
import {
  createRoutine,
  createTrigger,
  deleteTrigger,
  rotateWebhookSecret,
  updateRoutine,
  updateTrigger,
  type Routine,
  type RoutineTrigger,
} from '../src/modules/routines/service.ts';
import { cancelRunRequest } from '../src/modules/runs/cancel.ts';
import { completeRun } from '../src/modules/runs/complete.ts';
import {
  createSecret,
  deleteSecret,
  listSecrets,
  rotateSecret,
  secretProviders,
  updateSecret,
} from '../src/modules/secrets/service.ts';
import { companySkills } from '../src/db/schema/index.ts';
import { importSkills } from '../src/modules/skills/import.ts';
import { scanProjects } from '../src/modules/skills/scan.ts';
import { createManagedSkill, deleteSkill, updateSkillFile, type Skill } from '../src/modules/skills/service.ts';
import { installUpdate } from '../src/modules/skills/updates.ts';
import { companyImportBody, exportBody, importBody } from '../src/modules/portability/schemas.ts';
import { applyImportRequest, exportBundle, previewImport } from '../src/modules/portability/service.ts';
import { createAdapterRegistry } from '../src/adapters/registry.ts';
import { createAdapterManager } from '../src/modules/adapter-registry/service.ts';
import {
  getPlugin,
  installPlugin,
  listExamples,
  listPlugins,
  setPluginStatus,
  uninstallPlugin,
  upgradePlugin,
} from '../src/modules/plugins/service.ts';
import { disableCompanyPlugin, enableCompanyPlugin, listCompanyPlugins } from '../src/modules/plugins/company.ts';
import { listLocalFolders, putLocalFolder, validateLocalFolder } from '../src/modules/plugins/folders.ts';
import { getPluginConfig, savePluginConfig, testPluginConfig } from '../src/modules/plugins/config.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import {
  executePluginTool,
  listPluginTools,
  pluginAction,
  pluginDashboard,
  pluginData,
  uiContributions,
} from '../src/modules/plugins/surfaces.ts';
import { listJobRuns, listJobs, triggerJob } from '../src/modules/plugins/jobs.ts';
import {
  createOwnBoardKey,
  ownBoardKeys,
  revokeOwnBoardKey,
  runDoctor,
  whoAmI,
} from '../src/modules/system/service.ts';
import type { BoardActor } from '../src/core/actor.ts';
import pino from 'pino';
import { createActivityBody } from '../src/modules/activity/schemas.ts';
import { createActivityEntry } from '../src/modules/activity/service.ts';
import { listFeedbackTraces, listFeedbackTracesQuery } from '../src/modules/feedback/service.ts';
import { createFinanceEventBody } from '../src/modules/finance/schemas.ts';
import {
  financeByBiller,
  financeByKind,
  financeSummary,
  listFinanceEvents,
  recordFinanceEvent,
} from '../src/modules/finance/service.ts';
import { boardInbox, markInboxRead } from '../src/modules/inbox/board.ts';
import { inboxLite } from '../src/modules/inbox/service.ts';
import { selfAgent } from '../src/modules/agents/service.ts';
import { agentViews } from '../src/modules/agents/views.ts';
import { createPolicy, updatePolicy } from '../src/modules/budgets/budget-policies.ts';
import { resolveIncident } from '../src/modules/budgets/incidents.ts';
import { createPolicyBody, resolveIncidentBody, updatePolicyBody } from '../src/modules/budgets/schemas.ts';
import { createCostEventBody } from '../src/modules/costs/schemas.ts';
import { recordCostEvent } from '../src/modules/costs/service.ts';
import { quotaWindows } from '../src/modules/costs/summaries.ts';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent, multipartBody, newAgent, newIssue, newSecret } from './helpers/factories.ts';

const t = await useTestApp();
const db = t.database.db;
const storage = localStorage(path.join(t.config.dataDir, 'storage'));

const agentActor = (agent: { id: string; companyId: string; role: string; adapterType: string }): AgentActor => ({
  kind: 'agent',
  agentId: agent.id,
  companyId: agent.companyId,
  role: agent.role,
  adapterType: agent.adapterType,
  via: 'agent_key',
  // Agents send their run (checkout and release require one).
  runId: randomUUID(),
});

// Company A and its records, built through the API by A's board user.
const a = await companyWithAgent(t);
const companyA = (await db.query.companies.findFirst({ where: (c, { eq }) => eq(c.id, a.company.id) })) as Company;
const ceoOfA = await newAgent(t, a.boardToken, a.company.id, { role: 'ceo' });
const creatorOfA = await newAgent(t, a.boardToken, a.company.id, { permissions: { canCreateAgents: true } });
/** The agent the agent rows act on: neither the plain agent nor privileged. */
const target = await newAgent(t, a.boardToken, a.company.id);
const targetOfA = (await findAgentById(db, target.agent.id)) as Agent;
/** An approval of A requested (by the board's naming) for the target agent. */
const approvalA = (
  await t.request('POST', `/api/companies/${a.company.id}/approvals`, {
    token: a.boardToken,
    body: { type: 'request_board_approval', payload: { ask: 'ship it' }, requestedByAgentId: targetOfA.id },
  })
).body;
const issueA = (await findIssue(db, (await newIssue(t, a.boardToken, a.company.id)).id)) as Issue;
const planA = await t.request('PUT', `/api/issues/${issueA.id}/documents/plan`, {
  token: a.boardToken,
  body: { body: '# Plan' },
});
assert.equal(planA.status, 201);
/** Uploaded by the board: no agent is its uploader. */
const attachmentA = await t.request('POST', `/api/companies/${a.company.id}/issues/${issueA.id}/attachments`, {
  token: a.boardToken,
  ...multipartBody([{ name: 'file', data: 'notes', filename: 'notes.txt', contentType: 'text/plain' }]),
});
assert.equal(attachmentA.status, 201);
const goalA = (await findGoal(
  db,
  (
    await t.request('POST', `/api/companies/${a.company.id}/goals`, { token: a.boardToken, body: { title: 'Goal' } })
  ).body.id,
)) as Goal;
const projectBody = (
  await t.request('POST', `/api/companies/${a.company.id}/projects`, {
    token: a.boardToken,
    body: { name: 'Project', workspace: { name: 'main', cwd: '/tmp/policy-services' } },
  })
).body;
const [projectA] = (await db.select().from(projects).where(eq(projects.id, projectBody.id))) as [Project];
const workspaceA: string = projectBody.workspaces[0].id;
const labelA: string = (
  await t.request('POST', `/api/companies/${a.company.id}/labels`, { token: a.boardToken, body: { name: 'Bug' } })
).body.id;
/** A routine of A assigned to the target agent, with a webhook trigger. */
const routineId: string = (
  await t.request('POST', `/api/companies/${a.company.id}/routines`, {
    token: a.boardToken,
    body: { title: 'Routine', assigneeAgentId: targetOfA.id },
  })
).body.id;
const triggerId: string = (
  await t.request('POST', `/api/routines/${routineId}/triggers`, { token: a.boardToken, body: { kind: 'webhook' } })
).body.id;
const [routineA] = (await db.select().from(routines).where(eq(routines.id, routineId))) as [Routine];
const [triggerA] = (await db.select().from(routineTriggers).where(eq(routineTriggers.id, triggerId))) as [
  RoutineTrigger,
];
/** A live run of the target agent: its checkout with a run header records it. */
const runA = randomUUID();
const heldIssue = await newIssue(t, a.boardToken, a.company.id);
const checkout = await t.request('POST', `/api/issues/${heldIssue.id}/checkout`, {
  token: target.token,
  headers: { 'x-service-run-id': runA },
  body: { agentId: targetOfA.id, expectedStatuses: ['backlog'] },
});
assert.equal(checkout.status, 200);
const secretA: string = (await newSecret(t, a.boardToken, a.company.id)).id;
const withKey = (ctx: Ctx) => ({ ...ctx, masterKey: t.config.masterKey });
const adapters = createAdapterManager({
  db,
  registry: createAdapterRegistry(),
  dataDir: t.config.dataDir,
  logger: pino({ level: 'silent' }),
});
const pluginDeps = { dataDir: t.config.dataDir };
/** A board user who is not the instance owner: the adapter registry is the owner's to change. */
const boardMember: BoardActor = {
  kind: 'board',
  userId: (await t.newBoardUser()).userId,
  isInstanceOwner: false,
  via: 'board_key',
};
const inlineGoal = { type: 'inline', files: { 'goals/g/GOAL.md': '---\ntitle: Intruder goal\n---\n' } };
const skillId: string = (
  await t.request('POST', `/api/companies/${a.company.id}/skills`, { token: a.boardToken, body: { name: 'Skill' } })
).body.id;
const [skillA] = (await db.select().from(companySkills).where(eq(companySkills.id, skillId))) as [Skill];
/** A project budget policy of A. */
const policyA: string = (
  await t.request('POST', `/api/companies/${a.company.id}/budgets/policies`, {
    token: a.boardToken,
    body: { scopeType: 'project', scopeId: projectBody.id, amount: 1000 },
  })
).body.id;
// B's most privileged agent: no role rule of its own company can stand in for the boundary.
const b = await companyWithAgent(t, { role: 'ceo', permissions: { canCreateAgents: true } });

const otherCompanyAgent = agentActor(b.agent.agent);
/** A's engineer: not the CEO, no permission flags, not the subject of any fixture. */
const plainAgent = agentActor(a.agent.agent);

interface Row {
  /** The service entry point, as `module.function`. */
  entry: string;
  /** The table row that refuses the same-company caller. */
  action: Action;
  call: (ctx: Ctx) => Promise<unknown>;
  /**
   * The caller of the same company (or instance) refused: the plain agent (default), another
   * caller, or none where any agent of the company may.
   */
  sameCompany?: Actor | null;
  /** The row an agent meets first where a use case asks two (the adapters: reading them, then changing them). */
  agentRefusedBy?: Action;
}

const ROWS: Row[] = [
  // companies
  {
    entry: 'companies.createCompany',
    action: 'company.create',
    call: (ctx) => createCompany(ctx, { name: 'Intruder' }),
  },
  { entry: 'companies.listCompanies', action: 'company.list', call: (ctx) => listCompanies(ctx, true) },
  { entry: 'companies.companyStats', action: 'company.stats', call: (ctx) => companyStats(ctx) },
  {
    entry: 'companies.updateCompany',
    action: 'company.update',
    call: (ctx) => updateCompany(ctx, companyA, { description: 'taken over' }),
  },
  {
    entry: 'companies.updateCompany (a setting, by the CEO)',
    action: 'company.updateSettings',
    call: (ctx) => updateCompany(ctx, companyA, { name: 'Renamed', budgetMonthlyCents: 1 }),
    sameCompany: agentActor(ceoOfA.agent),
  },
  {
    entry: 'companies.updateBranding',
    action: 'company.brand',
    call: (ctx) => updateBranding(ctx, companyA, { brandColor: '#123456' }),
  },
  {
    entry: 'companies.uploadLogo',
    action: 'company.uploadLogo',
    call: (ctx) =>
      uploadLogo(ctx, storage, companyA, { bytes: Buffer.from('x'), contentType: 'image/png', filename: null }),
    sameCompany: null,
  },
  { entry: 'companies.archiveCompany', action: 'company.archive', call: (ctx) => archiveCompany(ctx, companyA.id) },
  {
    entry: 'companies.setCompanyBudget',
    action: 'company.setBudget',
    call: (ctx) => setCompanyBudget(ctx, companyA.id, 100),
  },

  // agents
  {
    entry: 'agents.createAgent',
    action: 'agent.create',
    call: (ctx) => createAgent(ctx, companyA.id, createAgentBody.parse({ name: 'Intruder', adapterType: 'process' })),
  },
  {
    entry: 'agents.hireAgent',
    action: 'agent.hire',
    call: (ctx) => hireAgent(ctx, companyA, hireAgentBody.parse({ name: 'Hire', adapterType: 'process' })),
  },
  {
    entry: 'agents.hireAgent (a CEO, by an agent creator)',
    action: 'agent.hireCeo',
    call: (ctx) => hireAgent(ctx, companyA, hireAgentBody.parse({ name: 'Boss', role: 'ceo', adapterType: 'process' })),
    sameCompany: agentActor(creatorOfA.agent),
  },
  {
    entry: 'agents.hireAgent (granting canCreateAgents, by an agent creator)',
    action: 'agent.hireAgentCreator',
    call: (ctx) =>
      hireAgent(
        ctx,
        companyA,
        hireAgentBody.parse({ name: 'Maker', adapterType: 'process', permissions: { canCreateAgents: true } }),
      ),
    sameCompany: agentActor(creatorOfA.agent),
  },
  {
    entry: 'agents.updateAgent',
    action: 'agent.update',
    call: (ctx) => updateAgent(ctx, targetOfA.id, { title: 'taken over' }),
  },
  {
    entry: 'agents.updateAgent (its own role, by the agent itself)',
    action: 'agent.reorganize',
    call: (ctx) => updateAgent(ctx, targetOfA.id, { role: 'ceo' }),
    sameCompany: agentActor(targetOfA),
  },
  {
    entry: 'agents.updatePermissions',
    action: 'agent.setPermissions',
    call: (ctx) => updatePermissions(ctx, targetOfA.id, { canCreateAgents: true }),
  },
  { entry: 'agents.updateBudget', action: 'agent.setBudget', call: (ctx) => updateBudget(ctx, targetOfA.id, 100) },
  { entry: 'agents.pauseAgent', action: 'agent.pause', call: (ctx) => pauseAgent(ctx, targetOfA.id) },
  { entry: 'agents.resumeAgent', action: 'agent.resume', call: (ctx) => resumeAgent(ctx, targetOfA.id) },
  { entry: 'agents.listKeys', action: 'agent.listKeys', call: (ctx) => listKeys(ctx, targetOfA.id) },
  { entry: 'agents.createKey', action: 'agent.createKey', call: (ctx) => createKey(ctx, targetOfA.id, 'stolen') },
  {
    entry: 'agents.revokeKey',
    action: 'agent.revokeKey',
    call: (ctx) => revokeKey(ctx, targetOfA.id, randomUUID()),
  },
  {
    entry: 'agents.rotateSigningSecret',
    action: 'agent.rotateSigningSecret',
    call: (ctx) => rotateSigningSecret(ctx, t.config.masterKey, targetOfA.id),
  },
  {
    entry: 'agents.requestWakeup',
    action: 'agent.wake',
    call: (ctx) => requestWakeup(ctx, targetOfA.id, wakeupBody.parse({ source: 'on_demand' })),
  },
  {
    entry: 'skills.syncAgentSkills',
    action: 'agent.syncSkills',
    call: (ctx) => syncAgentSkills(ctx, targetOfA, []),
  },

  // issues, comments, documents, attachments
  {
    entry: 'issues.createIssue',
    action: 'issue.create',
    call: (ctx) => createIssue(ctx, companyA.id, createIssueBody.parse({ title: 'Intruder' })),
    sameCompany: null,
  },
  {
    entry: 'issues.createIssue (assigned to another agent)',
    action: 'issue.assign',
    call: (ctx) =>
      createIssue(ctx, companyA.id, createIssueBody.parse({ title: 'For you', assigneeAgentId: targetOfA.id })),
  },
  {
    entry: 'issues.updateIssue',
    action: 'issue.update',
    call: (ctx) => updateIssue(ctx, issueA.id, patchIssueBody.parse({ title: 'taken over' })),
    sameCompany: null,
  },
  {
    entry: 'issues.updateIssue (assigning another agent)',
    action: 'issue.assign',
    call: (ctx) => updateIssue(ctx, issueA.id, patchIssueBody.parse({ assigneeAgentId: targetOfA.id })),
  },
  {
    entry: 'issues.updateIssue (interrupting with a comment)',
    action: 'issue.interrupt',
    call: (ctx) => updateIssue(ctx, issueA.id, patchIssueBody.parse({ comment: 'stop', interrupt: true })),
  },
  {
    entry: 'issues.listIssues (`me`)',
    action: 'issue.filterByMe',
    call: (ctx) => listIssues(ctx, companyA.id, listIssuesQuery.parse({ assigneeUserId: 'me' })),
  },
  {
    entry: 'issues.checkoutIssue (as another agent)',
    action: 'issue.checkout',
    call: (ctx) => checkoutIssue(ctx, issueA, { agentId: targetOfA.id, expectedStatuses: ['backlog', 'todo'] }),
  },
  { entry: 'issues.releaseIssue', action: 'issue.release', call: (ctx) => releaseIssue(ctx, issueA) },
  {
    entry: 'comments.createComment',
    action: 'issue.comment',
    call: (ctx) => createComment(ctx, issueA, { body: 'hello' }),
    sameCompany: null,
  },
  {
    entry: 'comments.createComment (interrupting)',
    action: 'issue.interrupt',
    call: (ctx) => createComment(ctx, issueA, { body: 'stop', interrupt: true }),
  },
  {
    entry: 'documents.putDocument',
    action: 'issue.putDocument',
    call: (ctx) => putDocument(ctx, issueA, 'notes', putDocumentBody.parse({ body: 'overwritten' })),
    sameCompany: null,
  },
  {
    entry: 'documents.deleteDocument',
    action: 'issue.deleteDocument',
    call: (ctx) => deleteDocument(ctx, issueA.id, 'plan'),
  },
  {
    entry: 'attachments.addAttachment',
    action: 'issue.attach',
    call: (ctx) =>
      addAttachment(ctx, storage, issueA, { bytes: Buffer.from('x'), contentType: 'text/plain', filename: 'x.txt' }),
    sameCompany: null,
  },
  {
    entry: 'attachments.deleteAttachment',
    action: 'issue.deleteAttachment',
    call: (ctx) => deleteAttachment(ctx, attachmentA.body.id),
  },

  // goals, projects and workspaces: any agent of the company may
  {
    entry: 'goals.createGoal',
    action: 'goal.create',
    call: (ctx) => createGoal(ctx, companyA.id, createGoalBody.parse({ title: 'Intruder goal' })),
    sameCompany: null,
  },
  {
    entry: 'goals.updateGoal',
    action: 'goal.update',
    call: (ctx) => updateGoal(ctx, goalA, patchGoalBody.parse({ title: 'taken over' })),
    sameCompany: null,
  },
  { entry: 'goals.deleteGoal', action: 'goal.delete', call: (ctx) => deleteGoal(ctx, goalA), sameCompany: null },
  // labels: any agent of the company reads, creates and renames; deleting is the board's or the CEO's
  { entry: 'labels.listLabels', action: 'label.read', call: (ctx) => listLabels(ctx, companyA.id), sameCompany: null },
  {
    entry: 'labels.createLabel',
    action: 'label.create',
    call: (ctx) => createLabel(ctx, companyA.id, { name: 'Intruder label' }),
    sameCompany: null,
  },
  {
    entry: 'labels.updateLabel',
    action: 'label.update',
    call: (ctx) => updateLabel(ctx, labelA, { name: 'taken over' }),
    sameCompany: null,
  },
  { entry: 'labels.deleteLabel', action: 'label.delete', call: (ctx) => deleteLabel(ctx, labelA) },
  {
    entry: 'projects.createProject',
    action: 'project.create',
    call: (ctx) => createProject(ctx, companyA.id, createProjectBody.parse({ name: 'Intruder project' })),
    sameCompany: null,
  },
  {
    entry: 'projects.updateProject',
    action: 'project.update',
    call: (ctx) => updateProject(ctx, projectA, patchProjectBody.parse({ description: 'taken over' })),
    sameCompany: null,
  },
  {
    entry: 'projects.createWorkspace',
    action: 'project.createWorkspace',
    call: (ctx) => createWorkspace(ctx, projectA, workspaceBody.parse({ name: 'ws', cwd: '/tmp/intruder' })),
    sameCompany: null,
  },
  {
    entry: 'projects.updateWorkspace',
    action: 'project.updateWorkspace',
    call: (ctx) => updateWorkspace(ctx, projectA, workspaceA, patchWorkspaceBody.parse({ name: 'taken over' })),
    sameCompany: null,
  },
  {
    entry: 'projects.runWorkspaceAction',
    action: 'project.controlRuntimeServices',
    call: (ctx) => runWorkspaceAction(ctx, projectA, workspaceA, 'stop'),
    sameCompany: null,
  },
  {
    entry: 'projects.deleteWorkspace',
    action: 'project.deleteWorkspace',
    call: (ctx) => deleteWorkspace(ctx, projectA, workspaceA),
    sameCompany: null,
  },
  {
    entry: 'projects.deleteProject',
    action: 'project.delete',
    call: (ctx) => deleteProject(ctx, projectA),
    sameCompany: null,
  },

  // routines (self: the routine's assignee, or the new assignee)
  {
    entry: 'routines.createRoutine',
    action: 'routine.create',
    call: (ctx) => createRoutine(ctx, companyA.id, createRoutineBody.parse({ title: 'Intruder routine' })),
    sameCompany: null,
  },
  {
    entry: 'routines.createRoutine (for another agent)',
    action: 'routine.assign',
    call: (ctx) =>
      createRoutine(ctx, companyA.id, createRoutineBody.parse({ title: 'Yours', assigneeAgentId: targetOfA.id })),
  },
  {
    entry: 'routines.updateRoutine',
    action: 'routine.update',
    call: (ctx) => updateRoutine(ctx, routineA.id, patchRoutineBody.parse({ title: 'taken over' })),
  },
  {
    entry: 'routines.updateRoutine (its assignee handing it to another agent)',
    action: 'routine.assign',
    call: (ctx) => updateRoutine(ctx, routineA.id, patchRoutineBody.parse({ assigneeAgentId: plainAgent.agentId })),
    sameCompany: agentActor(targetOfA),
  },
  {
    entry: 'routines.createTrigger',
    action: 'routine.addTrigger',
    call: (ctx) => createTrigger(ctx, t.config.masterKey, routineA.id, createTriggerBody.parse({ kind: 'api' })),
  },
  {
    entry: 'routines.updateTrigger',
    action: 'routine.updateTrigger',
    call: (ctx) => updateTrigger(ctx, t.config.masterKey, triggerA.id, patchTriggerBody.parse({ label: 'taken over' })),
  },
  {
    entry: 'routines.rotateWebhookSecret',
    action: 'routine.rotateSecret',
    call: (ctx) => rotateWebhookSecret(ctx, t.config.masterKey, triggerA),
  },
  {
    entry: 'routines.runRoutine',
    action: 'routine.fire',
    call: (ctx) => runRoutine(ctx, routineA, runRoutineBody.parse({}) ?? {}),
  },
  { entry: 'routines.deleteTrigger', action: 'routine.deleteTrigger', call: (ctx) => deleteTrigger(ctx, triggerA) },

  // runs
  { entry: 'runs.cancelRunRequest', action: 'run.cancel', call: (ctx) => cancelRunRequest(ctx, runA) },
  {
    entry: 'runs.completeRun',
    action: 'run.complete',
    call: (ctx) => completeRun(ctx, db, runA, { status: 'succeeded' }),
  },

  // secrets (board only)
  { entry: 'secrets.secretProviders', action: 'secret.read', call: (ctx) => secretProviders(ctx, companyA.id) },
  { entry: 'secrets.listSecrets', action: 'secret.read', call: (ctx) => listSecrets(ctx, companyA.id, 10) },
  {
    entry: 'secrets.createSecret',
    action: 'secret.create',
    call: (ctx) => createSecret(withKey(ctx), companyA.id, { name: 'STOLEN', value: 'x' }),
  },
  {
    entry: 'secrets.updateSecret',
    action: 'secret.update',
    call: (ctx) => updateSecret(withKey(ctx), secretA, { description: 'taken over' }),
  },
  {
    entry: 'secrets.rotateSecret',
    action: 'secret.rotate',
    call: (ctx) => rotateSecret(withKey(ctx), secretA, { value: 'mine now' }),
  },
  { entry: 'secrets.deleteSecret', action: 'secret.delete', call: (ctx) => deleteSecret(withKey(ctx), secretA) },

  // skills (the board, or an agent holding canCreateAgents)
  {
    entry: 'skills.createManagedSkill',
    action: 'skill.create',
    call: (ctx) => createManagedSkill(ctx, companyA.id, { name: 'Intruder skill' }),
  },
  {
    entry: 'skills.importSkills',
    action: 'skill.import',
    call: (ctx) => importSkills(ctx, companyA.id, '/tmp', { codeHost: t.config.codeHost }),
  },
  { entry: 'skills.scanProjects', action: 'skill.scanProjects', call: (ctx) => scanProjects(ctx, companyA.id, {}) },
  {
    entry: 'skills.updateSkillFile',
    action: 'skill.updateFile',
    call: (ctx) => updateSkillFile(ctx, skillA, 'SKILL.md', '# taken over'),
  },
  {
    entry: 'skills.installUpdate',
    action: 'skill.installUpdate',
    call: (ctx) => installUpdate(ctx, t.config.codeHost, skillA),
  },
  { entry: 'skills.deleteSkill', action: 'skill.delete', call: (ctx) => deleteSkill(ctx, skillA) },

  // export and import
  {
    entry: 'portability.exportBundle',
    action: 'company.export',
    call: (ctx) =>
      exportBundle(db, storage, ctx.actor, { companyId: companyA.id, body: exportBody.parse({}), strict: false }),
    sameCompany: null,
  },
  {
    entry: 'portability.exportBundle (strict)',
    action: 'company.exportBundle',
    call: (ctx) =>
      exportBundle(db, storage, ctx.actor, { companyId: companyA.id, body: exportBody.parse({}), strict: true }),
  },
  {
    entry: 'portability.previewImport (into the company)',
    action: 'company.importInto',
    call: (ctx) => previewImport(db, ctx.actor, companyImportBody.parse({ source: inlineGoal }), companyA.id),
  },
  {
    entry: 'portability.applyImportRequest (into the company)',
    action: 'company.importInto',
    call: (ctx) =>
      applyImportRequest(
        db,
        ctx.actor,
        { storage, masterKey: t.config.masterKey },
        companyImportBody.parse({ source: inlineGoal }),
        companyA.id,
      ),
  },
  {
    entry: 'portability.previewImport (a path on the server, by the CEO)',
    action: 'company.importFromServerPath',
    call: (ctx) =>
      previewImport(db, ctx.actor, companyImportBody.parse({ source: { type: 'path', path: '/tmp' } }), companyA.id),
    sameCompany: agentActor(ceoOfA.agent),
  },
  {
    entry: 'portability.applyImportRequest (a new company)',
    action: 'company.import',
    call: (ctx) =>
      applyImportRequest(
        db,
        ctx.actor,
        { storage, masterKey: t.config.masterKey },
        importBody.parse({ source: inlineGoal, target: { mode: 'new_company', newCompanyName: 'Intruder' } }),
      ),
  },

  // the instance: doctor, the board user's own identity and keys, the adapter registry
  {
    entry: 'system.runDoctor',
    action: 'instance.doctor',
    call: (ctx) =>
      runDoctor(ctx, { dataDir: t.config.dataDir, externalDatabase: false, query: async () => ({ rows: [] }) }),
  },
  { entry: 'system.whoAmI', action: 'instance.whoAmI', call: (ctx) => whoAmI(ctx) },
  { entry: 'system.ownBoardKeys', action: 'boardKey.read', call: (ctx) => ownBoardKeys(ctx) },
  { entry: 'system.createOwnBoardKey', action: 'boardKey.create', call: (ctx) => createOwnBoardKey(ctx, 'stolen') },
  {
    entry: 'system.revokeOwnBoardKey',
    action: 'boardKey.revoke',
    call: (ctx) => revokeOwnBoardKey(ctx, randomUUID()),
  },
  { entry: 'adapters.list', action: 'adapter.read', call: (ctx) => adapters.list(ctx.actor) },
  {
    entry: 'adapters.configSchema',
    action: 'adapter.read',
    call: (ctx) => adapters.configSchema(ctx.actor, 'process'),
  },
  { entry: 'adapters.uiParser', action: 'adapter.read', call: (ctx) => adapters.uiParser(ctx.actor, 'process') },
  ...(
    [
      [
        'install',
        'adapter.install',
        (actor: Actor) => adapters.install(actor, { packageName: '/tmp/no-such-adapter' }),
      ],
      ['setConfig', 'adapter.configure', (actor: Actor) => adapters.setConfig(actor, 'process', {})],
      ['setOverride', 'adapter.override', (actor: Actor) => adapters.setOverride(actor, 'process', { disabled: true })],
      ['remove', 'adapter.remove', (actor: Actor) => adapters.remove(actor, 'process')],
      ['reload', 'adapter.reload', (actor: Actor) => adapters.reload(actor, 'process')],
      ['reinstall', 'adapter.reinstall', (actor: Actor) => adapters.reinstall(actor, 'process')],
    ] as const
  ).map(
    ([method, action, call]): Row => ({
      entry: `adapters.${method}`,
      action,
      call: (ctx) => call(ctx.actor),
      sameCompany: boardMember,
      agentRefusedBy: 'adapter.read',
    }),
  ),

  // plugins: reading is the board's, changing the registry the instance owner's, consent a company's board's
  { entry: 'plugins.listPlugins', action: 'plugin.read', call: (ctx) => listPlugins(ctx) },
  { entry: 'plugins.listExamples', action: 'plugin.read', call: (ctx) => listExamples(ctx) },
  { entry: 'plugins.getPlugin', action: 'plugin.read', call: (ctx) => getPlugin(ctx, randomUUID()) },
  ...(
    [
      ['installPlugin', (ctx: Ctx) => installPlugin(ctx, pluginDeps, { packageName: '/tmp/no-such-plugin' })],
      ['upgradePlugin', (ctx: Ctx) => upgradePlugin(ctx, pluginDeps, randomUUID(), {})],
      ['uninstallPlugin', (ctx: Ctx) => uninstallPlugin(ctx, pluginDeps, randomUUID())],
      ['setPluginStatus', (ctx: Ctx) => setPluginStatus(ctx, randomUUID(), 'disabled')],
    ] as const
  ).map(
    ([name, call]): Row => ({
      entry: `plugins.${name}`,
      action: 'plugin.manage',
      call,
      sameCompany: boardMember,
      agentRefusedBy: 'plugin.read',
    }),
  ),
  {
    entry: 'plugins.listCompanyPlugins',
    action: 'plugin.readCompany',
    call: (ctx) => listCompanyPlugins(ctx, companyA.id),
  },
  {
    entry: 'plugins.enableCompanyPlugin',
    action: 'plugin.consent',
    call: (ctx) => enableCompanyPlugin(ctx, companyA.id, randomUUID(), [], Buffer.alloc(32)),
  },
  {
    entry: 'plugins.disableCompanyPlugin',
    action: 'plugin.consent',
    call: (ctx) => disableCompanyPlugin(ctx, companyA.id, randomUUID()),
  },
  {
    entry: 'plugins.listLocalFolders',
    action: 'plugin.readCompany',
    call: (ctx) => listLocalFolders(ctx, randomUUID(), companyA.id),
  },
  ...(
    [
      [
        'validateLocalFolder',
        (ctx: Ctx) => validateLocalFolder(ctx, pluginDeps, randomUUID(), companyA.id, 'docs', '/tmp'),
      ],
      ['putLocalFolder', (ctx: Ctx) => putLocalFolder(ctx, pluginDeps, randomUUID(), companyA.id, 'docs', '/tmp')],
    ] as const
  ).map(
    ([name, call]): Row => ({
      entry: `plugins.${name}`,
      action: 'plugin.mountFolder',
      call,
      sameCompany: boardMember,
    }),
  ),
  // the surfaces that call a company's worker: config and the UI's are the board's, tools its agents' too
  {
    entry: 'plugins.getPluginConfig',
    action: 'plugin.readCompany',
    call: (ctx) => getPluginConfig(ctx, randomUUID(), companyA.id),
  },
  ...([savePluginConfig, testPluginConfig] as const).map(
    (call): Row => ({
      entry: `plugins.${call.name}`,
      action: 'plugin.configure',
      call: (ctx) => call(ctx, pluginWorkersOf(t.app), randomUUID(), { companyId: companyA.id, config: {} }),
    }),
  ),
  ...([pluginData, pluginAction] as const).map(
    (call): Row => ({
      entry: `plugins.${call.name}`,
      action: 'plugin.useUi',
      call: (ctx) => call(ctx, pluginWorkersOf(t.app), randomUUID(), { companyId: companyA.id, key: 'k', params: {} }),
    }),
  ),
  { entry: 'plugins.uiContributions', action: 'plugin.readCompany', call: (ctx) => uiContributions(ctx, companyA.id) },
  {
    entry: 'plugins.pluginDashboard',
    action: 'plugin.readCompany',
    call: (ctx) => pluginDashboard(ctx, pluginWorkersOf(t.app), randomUUID(), companyA.id),
  },
  {
    entry: 'plugins.listPluginTools',
    action: 'plugin.listTools',
    call: (ctx) => listPluginTools(ctx, companyA.id),
    sameCompany: null,
  },
  {
    entry: 'plugins.executePluginTool (as another agent)',
    action: 'plugin.executeTool',
    call: (ctx) =>
      executePluginTool(ctx, pluginWorkersOf(t.app), {
        tool: `${randomUUID()}:echo`,
        parameters: {},
        runContext: { companyId: companyA.id, agentId: targetOfA.id },
      }),
  },
  { entry: 'plugins.listJobs', action: 'plugin.readJobs', call: (ctx) => listJobs(ctx, randomUUID(), companyA.id) },
  {
    entry: 'plugins.listJobRuns',
    action: 'plugin.readJobs',
    call: (ctx) => listJobRuns(ctx, randomUUID(), companyA.id, 'nightly', 10),
  },
  {
    entry: 'plugins.triggerJob',
    action: 'plugin.triggerJob',
    call: (ctx) => triggerJob(ctx, randomUUID(), companyA.id, 'nightly'),
  },

  // activity, feedback, the board inbox, finance (board only)
  {
    entry: 'activity.createActivityEntry',
    action: 'activity.create',
    call: (ctx) =>
      createActivityEntry(
        ctx,
        companyA.id,
        createActivityBody.parse({ actorId: 'x', action: 'test.done', entityType: 'issue', entityId: 'x' }),
      ),
  },
  {
    entry: 'feedback.listFeedbackTraces',
    action: 'company.readFeedback',
    call: (ctx) => listFeedbackTraces(ctx, companyA.id, listFeedbackTracesQuery.parse({})),
  },
  { entry: 'inbox.boardInbox', action: 'inbox.read', call: (ctx) => boardInbox(ctx, companyA.id) },
  {
    entry: 'inbox.markInboxRead',
    action: 'inbox.markRead',
    call: (ctx) => markInboxRead(ctx, companyA.id, [`issue:${issueA.id}`]),
  },
  {
    entry: 'finance.recordFinanceEvent',
    action: 'finance.record',
    call: (ctx) =>
      recordFinanceEvent(
        ctx,
        companyA.id,
        createFinanceEventBody.parse({
          kind: 'platform_fee',
          direction: 'debit',
          amountCents: 1,
          currency: 'USD',
          occurredAt: new Date().toISOString(),
        }),
      ),
  },
  ...(
    [
      ['financeSummary', financeSummary],
      ['financeByBiller', financeByBiller],
      ['financeByKind', financeByKind],
    ] as const
  ).map(
    ([name, read]): Row => ({
      entry: `finance.${name}`,
      action: 'finance.read',
      call: (ctx) => read(ctx, companyA.id, { from: null, to: null }),
    }),
  ),
  {
    entry: 'finance.listFinanceEvents',
    action: 'finance.read',
    call: (ctx) => listFinanceEvents(ctx, companyA.id, { from: null, to: null }, 10),
  },

  // costs and budgets
  {
    entry: 'costs.recordCostEvent (for another agent)',
    action: 'cost.report',
    call: (ctx) =>
      recordCostEvent(
        ctx,
        companyA.id,
        createCostEventBody.parse({
          agentId: targetOfA.id,
          provider: 'acme',
          model: 'm1',
          costCents: 1,
          occurredAt: new Date().toISOString(),
        }),
      ),
  },
  { entry: 'costs.quotaWindows', action: 'cost.readQuotaWindows', call: (ctx) => quotaWindows(ctx, companyA.id) },
  {
    entry: 'budgets.createPolicy',
    action: 'budget.createPolicy',
    call: (ctx) => createPolicy(ctx, companyA.id, createPolicyBody.parse({ scopeType: 'company', amount: 100 })),
  },
  {
    entry: 'budgets.updatePolicy',
    action: 'budget.updatePolicy',
    call: (ctx) => updatePolicy(ctx, companyA.id, policyA, updatePolicyBody.parse({ amount: 1 })),
  },
  {
    entry: 'budgets.resolveIncident',
    action: 'budget.resolveIncident',
    call: (ctx) =>
      resolveIncident(ctx, companyA.id, randomUUID(), resolveIncidentBody.parse({ action: 'keep_paused' })),
  },

  // approvals
  {
    entry: 'approvals.createApproval',
    action: 'approval.create',
    call: (ctx) => createApproval(ctx, { companyId: companyA.id, type: 'request_board_approval', payload: {} }),
    sameCompany: null,
  },
  {
    entry: 'approvals.createApproval (as another agent)',
    action: 'approval.requestAs',
    call: (ctx) =>
      createApproval(ctx, {
        companyId: companyA.id,
        type: 'request_board_approval',
        payload: {},
        requestedByAgentId: targetOfA.id,
      }),
  },
  {
    entry: 'approvals.decideApproval',
    action: 'approval.decide',
    call: (ctx) => decideApproval(ctx, approvalA.id, 'approve', 'mine now'),
  },
  {
    entry: 'approvals.resubmitApproval',
    action: 'approval.resubmit',
    call: (ctx) => resubmitApproval(ctx, approvalA.id, { ask: 'changed' }),
  },
  {
    entry: 'approvals.addApprovalComment',
    action: 'approval.comment',
    call: (ctx) => addApprovalComment(ctx, approvalA.id, 'hello'),
    sameCompany: null,
  },

  { entry: 'agents.terminateAgent', action: 'agent.terminate', call: (ctx) => terminateAgent(ctx, targetOfA.id) },
  { entry: 'agents.deleteAgent', action: 'agent.delete', call: (ctx) => deleteAgent(ctx, targetOfA.id) },
  { entry: 'companies.deleteCompany', action: 'company.delete', call: (ctx) => deleteCompany(ctx, companyA.id) },
];

/**
 * Actions no caller of another company can be refused, each with its own test below: an agent reads
 * its own row and its own assignments (the board is refused), and configurations are redacted, not refused.
 */
const NOT_ROWS = new Set<Action>([
  'agent.readSelf',
  'inbox.readLite',
  'agent.readConfig',
  // Reads a plugin's host call asks before the read service (routes read with the boundary alone):
  // test/plugin-host-api.test.ts refuses each without its capability, and for another company.
  'issue.read',
  'comment.read',
  'document.read',
  'project.read',
  'agent.read',
  'goal.read',
  'routine.read',
  'activity.read',
  'cost.read',
]);

async function refusal(call: () => Promise<unknown>): Promise<DomainError> {
  try {
    await call();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  assert.fail('the service did not refuse');
}

const as = (actor: Actor): Ctx => ({ db, actor });

describe('use cases refuse on their own, with no route in front', () => {
  it('has a row for every action of the permission table', () => {
    const covered = new Set(ROWS.map((r) => r.action));
    const missing = (Object.keys(ACTIONS) as Action[]).filter(
      (action) => !covered.has(action) && !NOT_ROWS.has(action),
    );
    assert.deepEqual(missing, [], 'add a row (or list the action in NOT_ROWS, with its own test)');
  });

  for (const row of ROWS) {
    it(`${row.entry}: refuses an agent of another company`, async () => {
      const err = await refusal(() => row.call(as(otherCompanyAgent)));
      assert.ok(err.status === 403 || err.status === 404, `${err.status} ${err.message}`);
      if (err.status === 403)
        assert.ok(
          ['no access to this company', ACTIONS[row.agentRefusedBy ?? row.action].denied].includes(err.message),
          err.message,
        );
    });
    if (row.sameCompany !== null)
      it(`${row.entry}: refuses an agent of the company without the permission (${row.action})`, async () => {
        const err = await refusal(() => row.call(as(row.sameCompany ?? plainAgent)));
        assert.equal(err.status, 403, err.message);
        assert.equal(err.message, ACTIONS[row.action].denied);
      });
  }
});

describe('the actions that are not rows', () => {
  const owner: BoardActor = { kind: 'board', userId: randomUUID(), isInstanceOwner: true, via: 'board_key' };

  it("an agent's own row and assignments: the board is refused, an agent of another company reads its own", async () => {
    for (const call of [selfAgent, inboxLite]) {
      const err = await refusal(() => call(as(owner)));
      assert.equal(err.status, 403);
      assert.equal(err.message, 'agent authentication required');
    }
    assert.equal((await selfAgent(as(otherCompanyAgent))).id, otherCompanyAgent.agentId);
    assert.deepEqual(await inboxLite(as(otherCompanyAgent)), []);
  });

  it('configurations: redacted for an agent that may not read them, in full for the agent itself and the board', async () => {
    const views = async (actor: Actor) => (await agentViews(as(actor), [targetOfA]))[0]?.canReadConfig;
    assert.equal(await views(plainAgent), false);
    assert.equal(await views(otherCompanyAgent), false);
    assert.equal(await views(agentActor(targetOfA)), true);
    assert.equal(await views(agentActor(ceoOfA.agent)), true);
    assert.equal(await views(owner), true);
  });
});

describe('the table, listed', () => {
  it('lists what an actor may do with a resource', () => {
    const onTarget = { companyId: companyA.id, agentId: targetOfA.id };
    const plain = allowedActions(plainAgent, onTarget);
    assert.ok(plain.includes('issue.create') && plain.includes('goal.update'), plain.join(', '));
    assert.ok(!plain.includes('agent.pause') && !plain.includes('agent.create') && !plain.includes('secret.read'));
    const ceo = allowedActions(agentActor(ceoOfA.agent), onTarget);
    assert.ok(ceo.includes('agent.pause') && ceo.includes('company.brand') && !ceo.includes('agent.delete'));
    const itself = allowedActions(agentActor(targetOfA), onTarget);
    assert.ok(itself.includes('agent.wake') && itself.includes('agent.update') && !itself.includes('agent.reorganize'));
  });

  it('docs/api.md lists the table as the code has it (node --import tsx scripts/permissions-doc.ts)', () => {
    const doc = readFileSync(API_DOC, 'utf8');
    assert.equal(doc, withPermissionTable(doc));
    assert.ok(doc.includes(permissionsMarkdown()));
  });

  it("the OpenAPI document's description carries the table", async () => {
    const spec = (await t.request('GET', '/api/openapi.json')).body;
    assert.ok(String(spec.info.description).includes(permissionsMarkdown()));
  });
});

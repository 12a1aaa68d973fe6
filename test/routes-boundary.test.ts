// Route-wide guards, from the generated OpenAPI route list:
// - every non-public route answers 401 without a credential;
// - the company boundary, operation by operation: company A's ids (company, issue, agent, approval,
//   project, goal, secret, document, attachment, comment, workspace, run, asset, key, skill) requested by a
//   board user of company B and by an agent of company B answer exactly 403, or 404 where SPEC hides
//   existence (approvals). Each request carries a valid body (the BODIES table), and fastify
//   validates before the handler runs, so an exact 403/404 also proves the request got past
//   validation: a leak cannot hide behind a 400.
// Every operation in the document is public, exempt with a reason (EXEMPT), or covered; a new
// operation with an unknown path parameter, or with a body and no BODIES entry, fails the test.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp, type TestApp } from './helpers/app.ts';
import { companyWithAgent, multipartBody, newIssue, newSecret } from './helpers/factories.ts';

const t = await useTestApp();

type Op = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} ${string}`;
interface Route {
  op: Op;
  method: string;
  path: string;
  hasRequestBody: boolean;
}

const spec = (await t.request('GET', '/api/openapi.json')).body as {
  paths: Record<string, Record<string, { requestBody?: unknown }>>;
};
const routes: Route[] = Object.entries(spec.paths)
  .filter(([path]) => !path.startsWith('/api/docs'))
  .flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, operation]) => ({
        op: `${m.toUpperCase()} ${path}` as Op,
        method: m.toUpperCase(),
        path,
        hasRequestBody: operation.requestBody !== undefined,
      })),
  );
const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const fill = (path: string, values: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? randomUUID());

const PUBLIC = new Set<string>([
  'GET /api/health',
  'GET /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/routine-triggers/public/{publicId}/fire',
  'POST /api/plugins/{pluginId}/webhooks/{endpointKey}',
]);

const SURFACE_EXEMPT =
  "the company is named in the query or body, not the path: another company's board and agents get 403 (plugin-surfaces.test.ts)";
const JOBS_EXEMPT =
  "the company is named in the query or body, not the path: another company's board and agents get 403 (plugin-jobs.test.ts)";
/** Operations that name nothing a company owns, and why they cannot leak another company's records. */
const EXEMPT: Partial<Record<Op, string>> = {
  'GET /api/companies': "lists only the caller's companies (companies.test.ts)",
  'GET /api/companies/stats': "counts only the caller's companies (companies.test.ts)",
  'POST /api/companies': 'creates a new company; names no existing one',
  'POST /api/companies/import':
    'an existing target company is named in the body: one outside the caller\'s answers 403 (portability.test.ts, "who may call")',
  'POST /api/companies/import/preview':
    'an existing target company is named in the body: one outside the caller\'s answers 403 (portability.test.ts, "who may call")',
  'GET /api/agents/me': 'the calling agent itself',
  'GET /api/agents/me/inbox-lite': "the calling agent's own assignments",
  'GET /api/board-keys': "the calling board user's own keys",
  'POST /api/board-keys': 'creates a key for the calling board user',
  'GET /api/cli-auth/me': 'the calling board user itself',
  'GET /api/instance/doctor': 'instance-level checks (node, data dir, database), no company record',
  // Adapters are instance-level (SPEC "Adapters"): no company owns one (adapters-registry.test.ts covers access).
  'GET /api/adapters': 'instance-level registry, no company record',
  'POST /api/adapters/install': 'instance-level registry, no company record',
  'PATCH /api/adapters/{type}': 'instance-level registry, no company record',
  'PATCH /api/adapters/{type}/override': 'instance-level registry, no company record',
  'DELETE /api/adapters/{type}': 'instance-level registry, no company record',
  'POST /api/adapters/{type}/reload': 'instance-level registry, no company record',
  'POST /api/adapters/{type}/reinstall': 'instance-level registry, no company record',
  'GET /api/adapters/{type}/config-schema': 'instance-level registry, no company record',
  'GET /api/adapters/{type}/ui-parser.js': 'instance-level registry, no company record',
  // Plugins are instance-level (SPEC "Plugins"): no company owns one (plugins.test.ts covers access).
  'GET /api/plugins': 'instance-level registry, no company record',
  'GET /api/plugins/examples': 'instance-level registry, no company record',
  'POST /api/plugins/install': 'instance-level registry, no company record',
  'GET /api/plugins/{pluginId}': 'instance-level registry, no company record',
  'DELETE /api/plugins/{pluginId}': 'instance-level registry, no company record',
  'POST /api/plugins/{pluginId}/enable': 'instance-level registry, no company record',
  'POST /api/plugins/{pluginId}/disable': 'instance-level registry, no company record',
  'POST /api/plugins/{pluginId}/upgrade': 'instance-level registry, no company record',
  'GET /api/plugins/{pluginId}/health':
    "instance-level plugin; entries only for the caller's companies (plugin-worker.test.ts)",
  'GET /api/plugins/{pluginId}/logs':
    "instance-level plugin; lines only of the caller's companies (plugin-worker.test.ts)",
  'POST /api/companies/{companyId}/plugins/{pluginId}/enable':
    "the plugin is the instance's, not company A's: B's board may turn it on for B; A's path refuses B's board and agents (plugins.test.ts)",
  'GET /api/plugins/{pluginId}/companies/{companyId}/local-folders':
    "the plugin is the instance's, not company A's: A's path refuses B's board and agents (plugin-folders.test.ts)",
  'GET /api/plugins/{pluginId}/companies/{companyId}/local-folders/{folderKey}/status':
    "the plugin is the instance's, not company A's: A's path refuses B's board and agents (plugin-folders.test.ts)",
  'POST /api/plugins/{pluginId}/companies/{companyId}/local-folders/{folderKey}/validate':
    'the instance owner alone mounts folders: every other caller is refused 403 (plugin-folders.test.ts)',
  'PUT /api/plugins/{pluginId}/companies/{companyId}/local-folders/{folderKey}':
    'the instance owner alone mounts folders: every other caller is refused 403 (plugin-folders.test.ts)',
  'POST /api/companies/{companyId}/plugins/{pluginId}/disable':
    "the plugin is the instance's, not company A's: B's board may turn it off for B; A's path refuses B's board and agents (plugins.test.ts)",
  // The surfaces that call a company's plugin worker name their company in the query or the body.
  'GET /api/plugins/ui-contributions': SURFACE_EXEMPT,
  'GET /api/plugins/{pluginId}/jobs': JOBS_EXEMPT,
  'GET /api/plugins/{pluginId}/jobs/{jobId}/runs': JOBS_EXEMPT,
  'POST /api/plugins/{pluginId}/jobs/{jobId}/trigger': JOBS_EXEMPT,
  'GET /api/plugins/tools': SURFACE_EXEMPT,
  'POST /api/plugins/tools/execute': SURFACE_EXEMPT,
  'GET /api/plugins/{pluginId}/config': SURFACE_EXEMPT,
  'POST /api/plugins/{pluginId}/config': SURFACE_EXEMPT,
  'POST /api/plugins/{pluginId}/config/test': SURFACE_EXEMPT,
  'POST /api/plugins/{pluginId}/data/{key}': SURFACE_EXEMPT,
  'POST /api/plugins/{pluginId}/actions/{key}': SURFACE_EXEMPT,
  'POST /api/plugins/{pluginId}/bridge/data': SURFACE_EXEMPT,
  'POST /api/plugins/{pluginId}/bridge/action': SURFACE_EXEMPT,
  'GET /api/plugins/{pluginId}/dashboard': SURFACE_EXEMPT,
  'POST /api/companies/{companyId}/plugins/{pluginId}/webhooks/{key}/rotate':
    "the plugin is the instance's; the endpoint is the path's company's: A's path refuses B's board (plugin-webhooks.test.ts)",
  'GET /api/plugins/{pluginId}/bridge/stream/{channel}':
    "instance-level plugin; the stream is the query's company's: B's board is refused A's (plugin-events.test.ts)",
};

/** Company A's records, created through the API by A's board user. */
async function companyA(t: TestApp) {
  const a = await companyWithAgent(t);
  const as = { token: a.boardToken };
  const company = a.company.id as string;
  const post = async (url: string, body: unknown, opts: Record<string, unknown> = {}) => {
    const res = await t.request('POST', url, { ...as, body, ...opts });
    assert.ok(res.status === 201 || res.status === 200, `fixture ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const issue = await newIssue(t, a.boardToken, company);
  const comment = await post(`/api/issues/${issue.id}/comments`, { body: 'a comment' });
  const document = await t.request('PUT', `/api/issues/${issue.id}/documents/plan`, {
    ...as,
    body: { body: '# Plan' },
  });
  assert.equal(document.status, 201);
  const [revision] = (await t.request('GET', `/api/issues/${issue.id}/documents/plan/revisions`, as)).body;
  const attachment = await t.request('POST', `/api/companies/${company}/issues/${issue.id}/attachments`, {
    ...as,
    ...multipartBody([{ name: 'file', data: 'notes', filename: 'notes.txt', contentType: 'text/plain' }]),
  });
  assert.equal(attachment.status, 201);
  // A run of A's agent: its checkout with a run header records the run.
  const runId = randomUUID();
  const held = await newIssue(t, a.boardToken, company);
  await post(
    `/api/issues/${held.id}/checkout`,
    { agentId: a.agent.agent.id, expectedStatuses: ['backlog'] },
    { token: a.agent.token, headers: { 'x-service-run-id': runId } },
  );
  const project = await post(`/api/companies/${company}/projects`, {
    name: 'Boundary',
    workspace: { name: 'main', cwd: '/tmp/boundary' },
  });
  const goal = await post(`/api/companies/${company}/goals`, { title: 'Boundary goal' });
  const label = await post(`/api/companies/${company}/labels`, { name: 'Boundary label' });
  const secret = await newSecret(t, a.boardToken, company);
  const approval = await post(`/api/companies/${company}/approvals`, {
    type: 'request_board_approval',
    payload: { ask: 'ship it' },
  });
  const logo = await t.request('POST', `/api/companies/${company}/logo`, {
    ...as,
    ...multipartBody([{ name: 'file', data: PNG, filename: 'logo.png', contentType: 'image/png' }]),
  });
  assert.equal(logo.status, 201);
  const [agentKey] = (await t.request('GET', `/api/agents/${a.agent.agent.id}/keys`, as)).body;
  const boardKey = await post('/api/board-keys', { name: 'A board key' });
  // A budget incident: a one-cent lifetime budget on the project, reached by one cost event.
  const policy = await post(`/api/companies/${company}/budgets/policies`, {
    scopeType: 'project',
    scopeId: project.id,
    amount: 1,
  });
  await post(`/api/companies/${company}/cost-events`, {
    agentId: a.agent.agent.id,
    provider: 'acme',
    model: 'm1',
    costCents: 1,
    occurredAt: new Date().toISOString(),
    projectId: project.id,
  });
  const [incident] = (
    await t.database.pool.query("select id from budget_incidents where company_id = $1 and kind = 'hard'", [company])
  ).rows;
  const routine = await post(`/api/companies/${company}/routines`, {
    title: 'Boundary routine',
    assigneeAgentId: a.agent.agent.id,
  });
  const trigger = await post(`/api/routines/${routine.id}/triggers`, { kind: 'webhook' });
  const skill = await post(`/api/companies/${company}/skills`, { name: 'Boundary skill' });
  return {
    issue,
    project,
    agentId: a.agent.agent.id as string,
    boardKeyId: boardKey.id as string,
    /** Every path parameter, as company A's own record (or a valid value, for `action`). */
    params: {
      companyId: company,
      issueId: issue.id,
      commentId: comment.id,
      key: document.body.key,
      revisionId: revision.id,
      attachmentId: attachment.body.id,
      runId,
      projectId: project.id,
      workspaceId: project.workspaces[0].id,
      action: 'start',
      goalId: goal.id,
      labelId: label.id,
      secretId: secret.id,
      approvalId: approval.id,
      agentId: a.agent.agent.id,
      keyId: agentKey.id,
      assetId: logo.body.assetId,
      routineId: routine.id,
      triggerId: trigger.id,
      incidentId: incident.id,
      policyId: policy.id,
      skillId: skill.id,
    } as Record<string, string>,
  };
}

// A 1x1 PNG (the logo route accepts images only).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const NO_BODY = Symbol('no body');
type Fixtures = Awaited<ReturnType<typeof companyA>>;
type Body = typeof NO_BODY | { json: unknown } | { multipart: Parameters<typeof multipartBody>[0] };

/** A minimal valid body for every operation that takes one (NO_BODY: a POST that takes none). */
const BODIES: Partial<Record<Op, (a: Fixtures) => Body>> = {
  'POST /api/companies/{companyId}/activity': () => ({
    json: { actorId: 'boundary', action: 'test.done', entityType: 'issue', entityId: 'x' },
  }),
  'POST /api/companies/{companyId}/inbox/read': (a) => ({ json: { keys: [`issue:${a.issue.id}`] } }),
  'POST /api/companies/{companyId}/agent-hires': () => ({ json: { name: 'Hire', adapterType: 'process' } }),
  'POST /api/companies/{companyId}/agents': () => ({ json: { name: 'Intruder', adapterType: 'process' } }),
  'POST /api/companies/{companyId}/approvals': () => ({ json: { type: 'request_board_approval', payload: {} } }),
  'POST /api/companies/{companyId}/archive': () => NO_BODY,
  'POST /api/companies/{companyId}/goals': () => ({ json: { title: 'Goal' } }),
  'POST /api/companies/{companyId}/export': () => ({ json: {} }),
  'POST /api/companies/{companyId}/exports': () => ({ json: { include: { issues: true } } }),
  'POST /api/companies/{companyId}/exports/preview': () => ({ json: {} }),
  'POST /api/companies/{companyId}/imports/preview': () => ({
    json: { source: { type: 'inline', files: { 'goals/g/GOAL.md': '---\ntitle: Intruder goal\n---\n' } } },
  }),
  'POST /api/companies/{companyId}/imports/apply': () => ({
    json: { source: { type: 'inline', files: { 'goals/g/GOAL.md': '---\ntitle: Intruder goal\n---\n' } } },
  }),
  'POST /api/companies/{companyId}/skills': () => ({ json: { name: 'Intruder skill' } }),
  'POST /api/companies/{companyId}/skills/import': () => ({ json: { source: '/tmp' } }),
  'POST /api/companies/{companyId}/skills/scan-projects': () => ({ json: {} }),
  'PATCH /api/companies/{companyId}/skills/{skillId}/files': () => ({
    json: { path: 'SKILL.md', content: '# taken over' },
  }),
  'POST /api/companies/{companyId}/skills/{skillId}/install-update': () => NO_BODY,
  'POST /api/agents/{agentId}/skills/sync': () => ({ json: { desiredSkills: [] } }),
  'POST /api/companies/{companyId}/issues': () => ({ json: { title: 'Issue' } }),
  'POST /api/companies/{companyId}/issues/{issueId}/attachments': () => ({
    multipart: [{ name: 'file', data: 'x', filename: 'x.txt', contentType: 'text/plain' }],
  }),
  'POST /api/companies/{companyId}/logo': () => ({
    multipart: [{ name: 'file', data: PNG, filename: 'logo.png', contentType: 'image/png' }],
  }),
  'POST /api/companies/{companyId}/projects': () => ({ json: { name: 'Project' } }),
  'POST /api/companies/{companyId}/secrets': () => ({ json: { name: 'STOLEN', value: 'x' } }),
  'PATCH /api/companies/{companyId}': () => ({ json: { description: 'changed' } }),
  'PATCH /api/companies/{companyId}/branding': () => ({ json: { brandColor: '#123456' } }),
  'PATCH /api/agents/{agentId}': () => ({ json: { title: 'changed' } }),
  'PATCH /api/agents/{agentId}/budgets': () => ({ json: { budgetMonthlyCents: 100 } }),
  'PATCH /api/agents/{agentId}/permissions': () => ({ json: { canCreateAgents: true } }),
  'POST /api/agents/{agentId}/keys': () => ({ json: { name: 'stolen' } }),
  'POST /api/agents/{agentId}/signing-secret': () => NO_BODY,
  'PATCH /api/companies/{companyId}/budgets': () => ({ json: { budgetMonthlyCents: 100 } }),
  'POST /api/companies/{companyId}/budgets/policies': () => ({ json: { scopeType: 'company', amount: 100 } }),
  'PATCH /api/companies/{companyId}/budgets/policies/{policyId}': () => ({ json: { amount: 200 } }),
  'POST /api/companies/{companyId}/budget-incidents/{incidentId}/resolve': () => ({ json: { action: 'keep_paused' } }),
  'POST /api/companies/{companyId}/cost-events': (a) => ({
    json: { agentId: a.agentId, provider: 'acme', model: 'm1', costCents: 1, occurredAt: new Date().toISOString() },
  }),
  'POST /api/companies/{companyId}/finance-events': () => ({
    json: {
      kind: 'platform_fee',
      direction: 'debit',
      amountCents: 1,
      currency: 'USD',
      occurredAt: new Date().toISOString(),
    },
  }),
  'POST /api/companies/{companyId}/routines': () => ({ json: { title: 'Intruder routine' } }),
  'PATCH /api/routines/{routineId}': () => ({ json: { title: 'changed' } }),
  'POST /api/routines/{routineId}/triggers': () => ({ json: { kind: 'api' } }),
  'POST /api/routines/{routineId}/run': () => ({ json: {} }),
  'PATCH /api/routine-triggers/{triggerId}': () => ({ json: { label: 'changed' } }),
  'POST /api/routine-triggers/{triggerId}/rotate-secret': () => NO_BODY,
  'POST /api/agents/{agentId}/pause': () => NO_BODY,
  'POST /api/agents/{agentId}/resume': () => NO_BODY,
  'POST /api/agents/{agentId}/terminate': () => NO_BODY,
  'POST /api/agents/{agentId}/wakeup': () => ({ json: { source: 'on_demand' } }),
  'POST /api/approvals/{approvalId}/approve': () => ({ json: { decisionNote: 'ok' } }),
  'POST /api/approvals/{approvalId}/reject': () => ({ json: { decisionNote: 'no' } }),
  'POST /api/approvals/{approvalId}/request-revision': () => ({ json: { decisionNote: 'again' } }),
  'POST /api/approvals/{approvalId}/resubmit': () => ({ json: { payload: {} } }),
  'POST /api/approvals/{approvalId}/comments': () => ({ json: { body: 'hello' } }),
  'POST /api/heartbeat-runs/{runId}/cancel': () => NO_BODY,
  'PATCH /api/goals/{goalId}': () => ({ json: { title: 'changed' } }),
  'POST /api/companies/{companyId}/labels': () => ({ json: { name: 'Intruder' } }),
  'PATCH /api/labels/{labelId}': () => ({ json: { name: 'changed' } }),
  'PATCH /api/issues/{issueId}': () => ({ json: { title: 'changed' } }),
  'POST /api/issues/{issueId}/checkout': (a) => ({
    json: { agentId: a.agentId, expectedStatuses: ['backlog', 'todo'] },
  }),
  'POST /api/issues/{issueId}/release': () => NO_BODY,
  'POST /api/issues/{issueId}/comments': () => ({ json: { body: 'hello' } }),
  'PUT /api/issues/{issueId}/documents/{key}': () => ({ json: { body: 'overwritten' } }),
  'PATCH /api/projects/{projectId}': () => ({ json: { description: 'changed' } }),
  'POST /api/projects/{projectId}/workspaces': () => ({ json: { name: 'ws', cwd: '/tmp/ws' } }),
  'PATCH /api/projects/{projectId}/workspaces/{workspaceId}': () => ({ json: { name: 'changed' } }),
  'POST /api/projects/{projectId}/workspaces/{workspaceId}/runtime-services/{action}': () => NO_BODY,
  'PATCH /api/secrets/{secretId}': () => ({ json: { description: 'changed' } }),
  'POST /api/secrets/{secretId}/rotate': () => ({ json: { value: 'new value' } }),
  'POST /api/heartbeat-runs/{runId}/complete': () => ({ json: { status: 'succeeded' } }),
};

/** What callers of company B get. Default: 403 for both. */
interface Expected {
  board: number;
  agent: number;
}
const FORBIDDEN: Expected = { board: 403, agent: 403 };
// SPEC "Approvals": an approval outside the caller's company answers 404, as if missing.
const HIDDEN: Expected = { board: 404, agent: 404 };
// Board-only routes refuse an agent (403) before looking the record up.
const HIDDEN_BOARD_ONLY: Expected = { board: 404, agent: 403 };
const EXPECTED: Partial<Record<Op, Expected>> = {
  'GET /api/approvals/{approvalId}': HIDDEN,
  'GET /api/approvals/{approvalId}/issues': HIDDEN,
  'GET /api/approvals/{approvalId}/comments': HIDDEN,
  'POST /api/approvals/{approvalId}/comments': HIDDEN,
  'POST /api/approvals/{approvalId}/resubmit': HIDDEN,
  'POST /api/approvals/{approvalId}/approve': HIDDEN_BOARD_ONLY,
  'POST /api/approvals/{approvalId}/reject': HIDDEN_BOARD_ONLY,
  'POST /api/approvals/{approvalId}/request-revision': HIDDEN_BOARD_ONLY,
  // A board key belongs to a user, not a company: another user's key is not found.
  'DELETE /api/board-keys/{keyId}': HIDDEN_BOARD_ONLY,
};
/** Path parameters that mean something else on one operation. */
/** A valid query string for the operations that require one (else they answer 400 before any access check). */
const QUERIES: Partial<Record<Op, string>> = {
  'GET /api/companies/{companyId}/routines/schedule-preview': '?cronExpression=0%209%20*%20*%20*',
};
const PARAM_OVERRIDES: Partial<Record<Op, (a: Fixtures) => Record<string, string>>> = {
  'DELETE /api/board-keys/{keyId}': (a) => ({ keyId: a.boardKeyId }),
};
/** The 403 the company boundary answers (src/core/access.ts): a board caller must get exactly this one. */
const BOUNDARY_ERROR = 'no access to this company';

const needsBodyEntry = (r: Route) => r.hasRequestBody || ['POST', 'PUT', 'PATCH'].includes(r.method);
const isPublic = (r: Route) => PUBLIC.has(r.op);
const covered = routes.filter((r) => !isPublic(r) && EXEMPT[r.op] === undefined);
// Reads first and deletes last, so even a broken boundary does not destroy fixtures other rows need.
const ORDER = ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'];
covered.sort((x, y) => ORDER.indexOf(x.method) - ORDER.indexOf(y.method));

async function send(
  r: Route,
  a: Fixtures,
  params: Record<string, string>,
  token: string,
  headers: Record<string, string> = {},
) {
  const body = BODIES[r.op]?.(a) ?? NO_BODY;
  const url = fill(r.path, { ...params, ...PARAM_OVERRIDES[r.op]?.(a) }) + (QUERIES[r.op] ?? '');
  if (body === NO_BODY) return t.request(r.method, url, { token, headers });
  if ('multipart' in body) {
    const mp = multipartBody(body.multipart);
    return t.request(r.method, url, { token, payload: mp.payload, headers: { ...headers, ...mp.headers } });
  }
  return t.request(r.method, url, { token, headers, body: body.json });
}

// Fixtures are built before any suite is declared: the runner starts declared suites while the module
// is still awaiting, and would close the app under a pending top-level await.
const a = await companyA(t);
// The most privileged agent of B (CEO, may create agents and assign tasks), so no role rule of B's
// own can stand in for the boundary.
const b = await companyWithAgent(t, { role: 'ceo', permissions: { canCreateAgents: true } });
const callers: { who: keyof Expected; token: string; headers: Record<string, string> }[] = [
  { who: 'board', token: b.boardToken, headers: {} },
  { who: 'agent', token: b.agent.token, headers: { 'x-service-run-id': randomUUID() } },
];

describe('route-wide guards', () => {
  it('lists the API routes', () => {
    assert.ok(routes.length > 80, `only ${routes.length} routes in the OpenAPI document`);
  });

  it('every non-public route answers 401 without a credential', async () => {
    const open: string[] = [];
    for (const r of routes) {
      if (isPublic(r)) continue;
      const res = await t.request(r.method, fill(r.path), {
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      if (res.status !== 401) open.push(`${r.op} -> ${res.status}`);
    }
    assert.deepEqual(open, []);
  });
});

describe('company boundary, every operation', () => {
  it('covers every operation: public, exempt with a reason, or with fixtures for its ids and a valid body', (ctx) => {
    const gaps: string[] = [];
    for (const r of covered) {
      const unknown = paramsOf(r.path).filter((p) => a.params[p] === undefined);
      if (unknown.length > 0) gaps.push(`${r.op}: no company-A fixture for {${unknown.join('}, {')}}`);
      if (paramsOf(r.path).length === 0)
        gaps.push(`${r.op}: names no company record; cover it or add it to EXEMPT with the reason`);
      const entry = BODIES[r.op];
      if (needsBodyEntry(r) && !entry) gaps.push(`${r.op}: takes a body but has no BODIES entry`);
      if (r.hasRequestBody && entry?.(a) === NO_BODY) gaps.push(`${r.op}: declares a body but BODIES says NO_BODY`);
    }
    // Tables naming operations that no longer exist would hide a rename.
    const known = new Set(routes.map((r) => r.op));
    for (const op of [
      ...Object.keys(EXEMPT),
      ...Object.keys(BODIES),
      ...Object.keys(EXPECTED),
      ...Object.keys(PARAM_OVERRIDES),
      ...Object.keys(QUERIES),
    ]) {
      if (!known.has(op as Op)) gaps.push(`${op}: listed in a table but not in the OpenAPI document`);
    }
    assert.deepEqual(gaps, []);
    assert.ok(covered.length >= 75, `only ${covered.length} operations covered`);
    ctx.diagnostic(
      `${covered.length} operations covered x ${callers.length} callers; ${Object.keys(EXEMPT).length} exempt, ${routes.filter(isPublic).length} public`,
    );
  });

  const check = async (params: Record<string, string>, expectedOf: (r: Route) => Expected, selected: Route[]) => {
    const leaks: string[] = [];
    for (const r of selected) {
      for (const caller of callers) {
        const want = expectedOf(r)[caller.who];
        const res = await send(r, a, params, caller.token, caller.headers);
        const boundaryAnswered = !(caller.who === 'board' && want === 403) || res.body?.error === BOUNDARY_ERROR;
        if (res.status !== want || !boundaryAnswered)
          leaks.push(
            `${r.op} (${caller.who} of B) -> ${res.status} ${JSON.stringify(res.body?.error ?? '')}, want ${want}`,
          );
      }
    }
    return leaks;
  };

  it(`callers of another company get exactly 403 (404 where SPEC hides existence) on every operation`, async () => {
    const leaks = await check(a.params, (r) => EXPECTED[r.op] ?? FORBIDDEN, covered);
    assert.deepEqual(leaks, []);
  });

  it('the same when the issue is named by its identifier', async () => {
    const withIssue = covered.filter((r) => paramsOf(r.path).includes('issueId'));
    assert.ok(withIssue.length >= 15);
    assert.deepEqual(
      await check({ ...a.params, issueId: a.issue.identifier }, (r) => EXPECTED[r.op] ?? FORBIDDEN, withIssue),
      [],
    );
  });

  it("a project shortname is looked up only among the caller's companies: 404", async () => {
    const withProject = covered.filter((r) => paramsOf(r.path).includes('projectId'));
    assert.ok(withProject.length >= 6);
    assert.deepEqual(await check({ ...a.params, projectId: a.project.urlKey }, () => HIDDEN, withProject), []);
  });

  it("a company path of the caller's own does not reach another company's records under it: 404", async () => {
    const nested = covered.filter((r) => paramsOf(r.path).includes('companyId') && paramsOf(r.path).length > 1);
    assert.ok(nested.length >= 1);
    for (const caller of callers) {
      const params = { ...a.params, companyId: b.company.id };
      for (const r of nested) {
        const res = await send(r, a, params, caller.token, caller.headers);
        assert.equal(res.status, 404, `${r.op} (${caller.who} of B, own companyId) -> ${res.status}`);
      }
    }
  });
});

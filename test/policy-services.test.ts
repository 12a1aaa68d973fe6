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
import { ACTIONS, type Action } from '../src/core/permissions.ts';
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
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent, newAgent } from './helpers/factories.ts';

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
});

// Company A and its records, built through the API by A's board user.
const a = await companyWithAgent(t);
const companyA = (await db.query.companies.findFirst({ where: (c, { eq }) => eq(c.id, a.company.id) })) as Company;
const ceoOfA = await newAgent(t, a.boardToken, a.company.id, { role: 'ceo' });
// B's most privileged agent: no role rule of its own company can stand in for the boundary.
const b = await companyWithAgent(t, { role: 'ceo', permissions: { canCreateAgents: true } });

const otherCompanyAgent = agentActor(b.agent.agent);
/** A's engineer: not the CEO, no permission flags, not the subject of any fixture. */
const plainAgent = agentActor(a.agent.agent);

interface Row {
  /** The service entry point, as `module.function`. */
  entry: string;
  /** The table row that refuses the same-company agent. */
  action: Action;
  call: (ctx: Ctx) => Promise<unknown>;
  /** The agent of the same company refused: plain (default), another one, or none where any agent of the company may. */
  sameCompany?: AgentActor | null;
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
  { entry: 'companies.deleteCompany', action: 'company.delete', call: (ctx) => deleteCompany(ctx, companyA.id) },
];

/** Actions answered by reads only: their refusals are covered through HTTP, not rows here. */
const READS = new Set<Action>([]);
/** Areas whose checks still sit in their routes (emptied area by area). */
const PENDING = [
  'agent.',
  'issue.',
  'goal.',
  'project.',
  'approval.',
  'routine.',
  'run.',
  'skill.',
  'secret.',
  'cost.',
  'budget.',
  'finance.',
  'activity.',
  'inbox.',
  'adapter.',
  'instance.',
  'boardKey.',
  'company.export',
  'company.import',
  'company.readFeedback',
];

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
      (action) => !covered.has(action) && !READS.has(action) && !PENDING.some((p) => action.startsWith(p)),
    );
    assert.deepEqual(missing, [], 'add a row (or list the action in READS)');
  });

  for (const row of ROWS) {
    it(`${row.entry}: refuses an agent of another company`, async () => {
      const err = await refusal(() => row.call(as(otherCompanyAgent)));
      assert.ok(err.status === 403 || err.status === 404, `${err.status} ${err.message}`);
      if (err.status === 403)
        assert.ok(
          err.message === 'no access to this company' || err.message === ACTIONS[row.action].denied,
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

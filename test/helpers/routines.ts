// The two companies the routines tests work in: company A (a board key, agents a1 and a2) and
// company B (its board key, an agent and a project), whose records A's routines may not borrow.
import type { TestApp } from './app.ts';
import { newAgent } from './factories.ts';

export const MISSING = '00000000-0000-4000-8000-000000000000';

export async function routineCompanies(t: TestApp) {
  const { company, token: board } = await t.newCompany();
  const a1 = await newAgent(t, board, company.id);
  const a2 = await newAgent(t, board, company.id);
  const b = await t.newCompany();
  const bAgent = await newAgent(t, b.token, b.company.id);
  const bProject = (
    await t.request('POST', `/api/companies/${b.company.id}/projects`, { token: b.token, body: { name: 'B project' } })
  ).body;
  return { A: company.id as string, board, a1, a2, b, bAgent, bProject };
}

// Factories that build fixtures through the API, as a client would. Each makes a fresh company
// by default, so a cross-tenant test is one line.
import type { TestApp } from './app.ts';

export interface AgentFixture {
  agent: any;
  /** An agent API key (svc_agent_...) for acting as this agent. */
  token: string;
}

/** Creates an agent (board API) in `companyId` and an API key for it. */
export async function newAgent(t: TestApp, boardToken: string, companyId: string, fields: Record<string, unknown> = {}): Promise<AgentFixture> {
  const res = await t.request('POST', `/api/companies/${companyId}/agents`, {
    token: boardToken,
    body: { name: `Agent ${Math.random().toString(36).slice(2, 8)}`, role: 'engineer', adapterType: 'process', adapterConfig: {}, ...fields },
  });
  if (res.status !== 201) throw new Error(`agent create failed: ${res.status} ${JSON.stringify(res.body)}`);
  const key = await t.request('POST', `/api/agents/${res.body.id}/keys`, { token: boardToken, body: { name: 'test' } });
  if (key.status !== 201) throw new Error(`agent key create failed: ${key.status} ${JSON.stringify(key.body)}`);
  return { agent: res.body, token: key.body.token };
}

/** A company with its board token, plus an agent of that company. */
export async function companyWithAgent(t: TestApp, agentFields: Record<string, unknown> = {}) {
  const { company, token } = await t.newCompany();
  const agent = await newAgent(t, token, company.id, agentFields);
  return { company, boardToken: token, agent };
}

// Factories that build fixtures through the API, as a client would. Each makes a fresh company
// by default, so a cross-tenant test is one line.
import { asc, eq } from 'drizzle-orm';
import { activityLog } from '../../src/db/schema/index.ts';
import type { TestApp } from './app.ts';

export interface AgentFixture {
  agent: any;
  /** An agent API key (svc_agent_...) for acting as this agent. */
  token: string;
}

/** Creates an agent (board API) in `companyId` and an API key for it. */
export async function newAgent(
  t: TestApp,
  boardToken: string,
  companyId: string,
  fields: Record<string, unknown> = {},
): Promise<AgentFixture> {
  const res = await t.request('POST', `/api/companies/${companyId}/agents`, {
    token: boardToken,
    body: {
      name: `Agent ${Math.random().toString(36).slice(2, 8)}`,
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {},
      ...fields,
    },
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

/** Creates an issue through the API and returns the created issue. */
export async function newIssue(
  t: TestApp,
  token: string,
  companyId: string,
  fields: Record<string, unknown> = {},
): Promise<any> {
  const res = await t.request('POST', `/api/companies/${companyId}/issues`, {
    token,
    body: { title: `Issue ${Math.random().toString(36).slice(2, 8)}`, ...fields },
  });
  if (res.status !== 201) throw new Error(`issue create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface MultipartPart {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data payload and its content-type header, for t.request(..., { payload, headers }). */
export function multipartBody(parts: MultipartPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----boardroom${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType === undefined ? '' : `\r\nContent-Type: ${part.contentType}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Creates a secret (board API) and returns its metadata record. */
export async function newSecret(
  t: TestApp,
  boardToken: string,
  companyId: string,
  name = `SECRET_${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
): Promise<any> {
  const res = await t.request('POST', `/api/companies/${companyId}/secrets`, {
    token: boardToken,
    body: { name, value: 's3cr3t-value' },
  });
  if (res.status !== 201) throw new Error(`secret create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Activity rows of a company with the given action, oldest first, read straight from the table. */
export async function activityRows(t: TestApp, companyId: string, action: string): Promise<any[]> {
  const res = await t.database.pool.query(
    'select * from activity_log where company_id = $1 and action = $2 order by created_at, id',
    [companyId, action],
  );
  return res.rows;
}

/** The activity actions recorded about one entity, oldest first. */
export async function activityActions(t: TestApp, entityId: string): Promise<string[]> {
  const rows = await t.database.db
    .select({ action: activityLog.action })
    .from(activityLog)
    .where(eq(activityLog.entityId, entityId))
    .orderBy(asc(activityLog.createdAt));
  return rows.map((r) => r.action);
}

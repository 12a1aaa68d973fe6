// Where a company's secrets are used: the live agents whose adapterConfig.env binds a variable to a
// secret reference. Read for the board's secrets list, so it says what a rotation or a delete touches.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** References listed per secret; the count stays exact beyond it. */
export const MAX_REFERENCES_PER_SECRET = 20;

export interface SecretReference {
  agentId: string;
  agentName: string;
  envKey: string;
  version: 'latest' | number;
}

export interface SecretReferences {
  count: number;
  agents: SecretReference[];
}

interface Row extends Record<string, unknown> {
  secret_id: string;
  agent_id: string;
  agent_name: string;
  env_key: string;
  version: string | null;
  total: string | number;
}

/**
 * One read over the company's non-terminated agents (env bindings are top-level: a variable's value
 * is a string, a plain binding or a secret reference), at most MAX_REFERENCES_PER_SECRET rows per
 * secret, by agent name then variable.
 */
export async function secretReferences(
  db: DbOrTx,
  companyId: string,
  secretIds: string[],
): Promise<Map<string, SecretReferences>> {
  const out = new Map<string, SecretReferences>(secretIds.map((id) => [id, { count: 0, agents: [] }]));
  if (secretIds.length === 0) return out;
  const { rows } = await db.execute<Row>(sql`
    select secret_id, agent_id, agent_name, env_key, version, total from (
      select e.value ->> 'secretId' as secret_id, a.id as agent_id, a.name as agent_name, e.key as env_key, e.value ->> 'version' as version,
             row_number() over (partition by e.value ->> 'secretId' order by a.name, a.id, e.key) as n,
             count(*) over (partition by e.value ->> 'secretId') as total
      from agents a
      cross join lateral jsonb_each(case when jsonb_typeof(a.adapter_config -> 'env') = 'object' then a.adapter_config -> 'env' else '{}'::jsonb end) e
      where a.company_id = ${companyId} and a.status <> 'terminated'
        and jsonb_typeof(e.value) = 'object' and e.value ->> 'type' = 'secret_ref'
        and e.value ->> 'secretId' in (${sql.join(
          secretIds.map((id) => sql`${id}`),
          sql`, `,
        )})
    ) r
    where n <= ${MAX_REFERENCES_PER_SECRET}
    order by secret_id, n`);
  for (const row of rows) {
    const refs = out.get(row.secret_id);
    if (!refs) continue;
    refs.count = Number(row.total);
    const pinned = row.version !== null && row.version !== 'latest' ? Number(row.version) : null;
    refs.agents.push({
      agentId: row.agent_id,
      agentName: row.agent_name,
      envKey: row.env_key,
      version: pinned ?? 'latest',
    });
  }
  return out;
}

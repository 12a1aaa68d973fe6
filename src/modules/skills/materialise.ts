// Before each run of an adapter that takes skills (claude_local), the agent's attached skills are
// written out as folders `<dataDir>/agents/<agentId>/skills/<slug>/...` and the directory is handed
// to the adapter as adapterConfig.skillsDir. Written fresh every run from the database (the record
// of truth), so an edit, a sync or a deletion shows up on the next run and nothing stale survives.
import { inArray } from 'drizzle-orm';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DbOrTx } from '../../db/client.ts';
import { companySkillFiles } from '../../db/schema/index.ts';
import { attachedSkills } from './agent-skills.ts';
import { isSafeSkillPath } from './package.ts';

/** Adapter types handed a skills directory (SPEC snapshot mode `ephemeral`: rebuilt each run). */
export const SKILL_DIR_ADAPTERS = new Set(['claude_local']);

export const agentSkillsDir = (dataDir: string, agentId: string) => path.join(dataDir, 'agents', agentId, 'skills');

/**
 * Writes the attached skills and returns the directory; null when the agent has none attached (the
 * adapter then runs without one). Built beside the target and swapped in, so a run never sees a
 * half-written directory.
 */
export async function materialiseAgentSkills(db: DbOrTx, dataDir: string, agentId: string, runId: string): Promise<string | null> {
  const skills = await attachedSkills(db, agentId);
  if (skills.length === 0) return null;
  const files = await db
    .select({ skillId: companySkillFiles.skillId, path: companySkillFiles.path, encoding: companySkillFiles.encoding, content: companySkillFiles.content })
    .from(companySkillFiles)
    .where(inArray(companySkillFiles.skillId, skills.map((s) => s.id)));
  const target = agentSkillsDir(dataDir, agentId);
  const staging = `${target}.${runId}.tmp`;
  await rm(staging, { recursive: true, force: true });
  // Two skills may share a slug (different keys): the later one gets its key's hash as a suffix.
  const folderOf = new Map<string, string>();
  for (const s of skills) folderOf.set(s.id, [...folderOf.values()].includes(s.slug) ? `${s.slug}-${s.id.slice(0, 8)}` : s.slug);
  for (const f of files) {
    if (!isSafeSkillPath(f.path)) continue; // stored paths were checked on the way in; never write outside
    const dest = path.join(staging, folderOf.get(f.skillId)!, f.path);
    await mkdir(path.dirname(dest), { recursive: true });
    await writeFile(dest, f.encoding === 'base64' ? Buffer.from(f.content, 'base64') : f.content);
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return target;
}

// Before each run of an adapter that takes skills, the agent's attached skills are written out as
// folders `<slug>/...`: for claude_local under `<dataDir>/agents/<agentId>/skills`, handed to the
// adapter as adapterConfig.skillsDir; for codex_local under `<dataDir>/agents/<agentId>/codex-home/skills`,
// that codex-home handed to Codex as CODEX_HOME (Codex reads `$CODEX_HOME/skills/<name>/SKILL.md`). Written fresh every run from the database (the record
// of truth), so an edit, a sync or a deletion shows up on the next run and nothing stale survives.
import { inArray } from 'drizzle-orm';
import { lstat, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DbOrTx } from '../../db/client.ts';
import { companySkillFiles } from '../../db/schema/index.ts';
import { attachedSkills } from './agent-skills.ts';
import { isSafeSkillPath } from './package.ts';
import { entryOf } from '../../lib/maps.ts';

/** Adapter types handed a skills directory as adapterConfig.skillsDir (codex_local gets a CODEX_HOME instead). */
export const SKILL_DIR_ADAPTERS = new Set(['claude_local']);

export const agentSkillsDir = (dataDir: string, agentId: string) => path.join(dataDir, 'agents', agentId, 'skills');
export const codexHomeDir = (dataDir: string, agentId: string) => path.join(dataDir, 'agents', agentId, 'codex-home');
/** What a Codex login keeps in its home: linked into the agent's CODEX_HOME so the run stays signed in. */
const CODEX_LOGIN_FILES = ['auth.json', 'config.toml'];

/**
 * The agent's CODEX_HOME with its skills under skills/, or null when it has none attached (Codex
 * then runs with its usual home). The login files of `<userHome>/.codex` are linked in, never copied.
 */
export async function prepareCodexHome(
  db: DbOrTx,
  dataDir: string,
  agentId: string,
  runId: string,
  userHome: string,
): Promise<string | null> {
  const home = codexHomeDir(dataDir, agentId);
  const skills = await materialiseAgentSkills(db, dataDir, agentId, runId, path.join(home, 'skills'));
  if (!skills) return null;
  for (const name of CODEX_LOGIN_FILES) {
    const link = path.join(home, name);
    const source = path.join(userHome, '.codex', name);
    if ((await lstat(link).catch(() => null)) || !(await lstat(source).catch(() => null))) continue;
    await symlink(source, link);
  }
  return home;
}

/**
 * Writes the attached skills and returns the directory; null when the agent has none attached (the
 * adapter then runs without one). Built beside the target and swapped in, so a run never sees a
 * half-written directory.
 */
export async function materialiseAgentSkills(
  db: DbOrTx,
  dataDir: string,
  agentId: string,
  runId: string,
  target = agentSkillsDir(dataDir, agentId),
): Promise<string | null> {
  const skills = await attachedSkills(db, agentId);
  if (skills.length === 0) return null;
  const files = await db
    .select({
      skillId: companySkillFiles.skillId,
      path: companySkillFiles.path,
      encoding: companySkillFiles.encoding,
      content: companySkillFiles.content,
    })
    .from(companySkillFiles)
    .where(
      inArray(
        companySkillFiles.skillId,
        skills.map((s) => s.id),
      ),
    );
  const staging = `${target}.${runId}.tmp`;
  await rm(staging, { recursive: true, force: true });
  // Two skills may share a slug (different keys): the later one gets its key's hash as a suffix.
  const folderOf = new Map<string, string>();
  for (const s of skills)
    folderOf.set(s.id, [...folderOf.values()].includes(s.slug) ? `${s.slug}-${s.id.slice(0, 8)}` : s.slug);
  for (const f of files) {
    if (!isSafeSkillPath(f.path)) continue; // stored paths were checked on the way in; never write outside
    const dest = path.join(staging, entryOf(folderOf, f.skillId, 'skill folder'), f.path);
    await mkdir(path.dirname(dest), { recursive: true });
    await writeFile(dest, f.encoding === 'base64' ? Buffer.from(f.content, 'base64') : f.content);
  }
  await mkdir(path.dirname(target), { recursive: true });
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return target;
}

// Update status and install-update of code-host and catalog skills (SPEC §9: they pin to a commit;
// update-status compares the pin with the tip of its tracking ref, install-update moves to it).
// Local and URL skills are live or unversioned, bundled skills follow the server release: there is
// nothing to compare for them (supported: false with the reason).
import { inTransaction, type Ctx } from '../../core/context.ts';
import { eq } from 'drizzle-orm';
import { companySkills } from '../../db/schema/index.ts';
import { conflict, notFound, unprocessable } from '../../core/errors.ts';
import type { CodeHostConfig } from '../../core/config.ts';
import { CodeHostClient, pinOf, type SourcePin } from './codehost.ts';
import { resolveCodeHost, storeResolved } from './import.ts';
import type { Skill } from './service.ts';
import { assertMayManageSkills } from './policy.ts';

export interface UpdateStatus {
  supported: boolean;
  reason?: string;
  pinnedCommit: string | null;
  latestCommit: string | null;
  updateAvailable: boolean;
  trackingRef: string | null;
  checkedAt: Date;
}

const UNSUPPORTED: Record<string, string> = {
  service_bundled: 'bundled skills follow the server release',
  local_path: 'local skills are live: they are read from disk when imported again',
  project_scan: 'scanned project skills are live: scan the projects again',
  managed_local: 'managed skills are edited here, not pulled from anywhere',
  url: 'a URL skill has no commit to compare: import the URL again',
};

type Pinned = { skill: Skill; pin: SourcePin; kind: 'codehost' | 'catalog'; owner: string; repo: string };

function pinned(skill: Skill): Pinned | { reason: string } {
  if (skill.sourceKind !== 'codehost' && skill.sourceKind !== 'catalog')
    return { reason: UNSUPPORTED[skill.sourceKind] ?? `${skill.sourceKind} skills are not pinned to a commit` };
  const pin = pinOf(skill.metadata);
  if (!pin) return { reason: 'the skill records no code-host pin (metadata.sources)' };
  const [owner, repo] = pin.repo.split('/');
  if (!owner || !repo) return { reason: `the skill's pin names no owner/repo repository (${pin.repo})` };
  return { skill, pin, kind: skill.sourceKind, owner, repo };
}

export async function updateStatus(config: CodeHostConfig, skill: Skill): Promise<UpdateStatus> {
  const p = pinned(skill);
  if ('reason' in p)
    return {
      supported: false,
      reason: p.reason,
      pinnedCommit: null,
      latestCommit: null,
      updateAvailable: false,
      trackingRef: null,
      checkedAt: new Date(),
    };
  const { owner, repo } = p;
  const latestCommit = await new CodeHostClient(config).resolveCommit(owner, repo, p.pin.trackingRef);
  return {
    supported: true,
    pinnedCommit: p.pin.commit,
    latestCommit,
    updateAvailable: latestCommit !== p.pin.commit,
    trackingRef: p.pin.trackingRef,
    checkedAt: new Date(),
  };
}

/** Re-reads the skill's folder at the tip of its ref and replaces its files and pin; 409 for kinds without a pin. */
export async function installUpdate(
  ctx: Ctx,
  config: CodeHostConfig,
  skill: Skill,
): Promise<{ skill: Skill; status: 'updated' | 'unchanged'; previousCommit: string; commit: string }> {
  await assertMayManageSkills(ctx, 'skill.installUpdate', skill.companyId);
  const p = pinned(skill);
  if ('reason' in p) throw conflict(`this skill cannot be updated from a code host: ${p.reason}`);
  const { owner, repo } = p;
  const path = p.pin.path;
  const resolved = await resolveCodeHost(
    new CodeHostClient(config),
    p.kind,
    { owner, repo, ref: p.pin.trackingRef, ...(path && { path }), ...(p.pin.kind === 'github-file' && { file: true }) },
    skill.sourceLocator ?? `${owner}/${repo}`,
  );
  // The folder may now hold more skills (a tree path): the one whose folder is the pinned one is this skill.
  const mine = resolved.packages.filter((x) => x.pkg.slug === skill.slug || resolved.packages.length === 1).slice(0, 1);
  if (mine.length === 0)
    throw unprocessable(`the skill ${skill.slug} is no longer at ${p.pin.repo}/${p.pin.path} on ${p.pin.trackingRef}`);
  // The record keeps its key even if the frontmatter's override changed upstream: agents reference it by it.
  const packages = mine.map((x) => ({ pkg: { ...x.pkg, keyOverride: skill.key }, defaultKey: () => skill.key }));
  return inTransaction(ctx, async (tx) => {
    // The files were fetched without a lock: the skill may have been deleted meanwhile, and storing
    // by its key would bring it back. Its row, locked, must still be there.
    const [still] = await tx
      .select({ id: companySkills.id })
      .from(companySkills)
      .where(eq(companySkills.id, skill.id))
      .for('update');
    if (!still) throw notFound('skill');
    const { imported, warnings } = await storeResolved(
      tx,
      ctx.actor,
      skill.companyId,
      { ...resolved, packages },
      'company.skill_updated',
    );
    const done = imported[0];
    if (!done) throw conflict('the update could not be stored', { warnings });
    return {
      skill: done.skill,
      status: done.status === 'unchanged' ? 'unchanged' : 'updated',
      previousCommit: p.pin.commit,
      commit: resolved.source.commit,
    };
  });
}

// The instance-level use cases behind the system routes: the running server's doctor checks, and the
// calling board user's own identity and board keys (the keys themselves are the auth area's).
import { checkDatabaseAnswers, checkDataDir, checkNode, type Check } from '../../core/doctor-checks.ts';
import type { Ctx } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { companyIdsOfUser, createBoardKey, listBoardKeys, revokeBoardKey } from '../auth/service.ts';
import { assertMayRunDoctor, boardUserFor } from './policy.ts';

export const DOCTOR_CHECK_MS = 5_000;

/** A check that does not answer in time is a failed check (a hung disk or database must not hang the page). */
async function bounded(name: string, check: () => Promise<Check>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve([name, false, `no answer within ${DOCTOR_CHECK_MS / 1000} s`]), DOCTOR_CHECK_MS);
  });
  try {
    return await Promise.race([check(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The checks of `boardroom doctor` that apply to a running server, each bounded to DOCTOR_CHECK_MS. */
export async function runDoctor(
  ctx: Ctx,
  server: { dataDir: string; externalDatabase: boolean; query: Parameters<typeof checkDatabaseAnswers>[0] },
): Promise<{ ok: boolean; checks: { name: string; ok: boolean; detail: string }[] }> {
  await assertMayRunDoctor(ctx);
  const checks = await Promise.all([
    bounded('node', async () => checkNode()),
    bounded('data dir', () => checkDataDir(server.dataDir)),
    bounded('database', () => checkDatabaseAnswers(server.query, server.externalDatabase)),
  ]);
  const list = checks.map(([name, ok, detail]) => ({ name, ok, detail }));
  return { ok: list.every((check) => check.ok), checks: list };
}

/** GET /api/cli-auth/me: the board user behind the credential and the companies they belong to. */
export async function whoAmI(ctx: Ctx) {
  const actor = await boardUserFor(ctx, 'instance.whoAmI');
  return {
    user: { id: actor.userId, isInstanceOwner: actor.isInstanceOwner },
    companyIds: await companyIdsOfUser(ctx.db, actor.userId),
    keyId: actor.keyId ?? null,
    via: actor.via,
  };
}

export async function ownBoardKeys(ctx: Ctx) {
  const actor = await boardUserFor(ctx, 'boardKey.read');
  return listBoardKeys(ctx.db, actor.userId);
}

export async function createOwnBoardKey(ctx: Ctx, name: string) {
  const actor = await boardUserFor(ctx, 'boardKey.create');
  return createBoardKey(ctx.db, actor.userId, name);
}

/** Another user's key is not found: keys belong to users, not companies. */
export async function revokeOwnBoardKey(ctx: Ctx, keyId: string) {
  const actor = await boardUserFor(ctx, 'boardKey.revoke');
  const key = await revokeBoardKey(ctx.db, actor.userId, keyId);
  if (!key) throw notFound('board key');
  return key;
}

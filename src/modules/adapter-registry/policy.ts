// Who may use the adapter registry (SPEC "Adapters (instance-level, board scope)"): the `adapter.*`
// rows of the permission table (core/permissions.ts). Reading is any board caller's; changing it runs
// foreign code inside the server (an install imports the package), so every mutation is the instance
// owner's alone. Agents get 403 everywhere, refused as readers first ("board access required").
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';

type ChangeAction =
  | 'adapter.install'
  | 'adapter.configure'
  | 'adapter.override'
  | 'adapter.remove'
  | 'adapter.reload'
  | 'adapter.reinstall';

export async function assertMayReadAdapters(ctx: Ctx): Promise<void> {
  await assertMay(ctx, 'adapter.read', {});
}

export async function assertMayChangeAdapters(ctx: Ctx, action: ChangeAction): Promise<void> {
  await assertMayReadAdapters(ctx);
  await assertMay(ctx, action, {});
}

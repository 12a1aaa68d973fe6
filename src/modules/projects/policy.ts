// Who may change projects and their workspaces: the `project.*` rows of the permission table
// (core/permissions.ts). Any caller with access to the company (SPEC "Projects and workspaces"
// names no role), so the company boundary is the whole check.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';

type ProjectAction =
  | 'project.create'
  | 'project.update'
  | 'project.delete'
  | 'project.createWorkspace'
  | 'project.updateWorkspace'
  | 'project.deleteWorkspace'
  | 'project.controlRuntimeServices';

export async function assertMayChangeProjects(ctx: Ctx, action: ProjectAction, companyId: string): Promise<void> {
  await assertMay(ctx, action, { companyId });
}

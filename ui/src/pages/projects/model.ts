// Projects as the board shows them; shared by the list and the detail page.
import type { paths } from '../../api/schema';

/** One project as its page reads it, with its goals and workspaces. */
export type Project = paths['/api/projects/{projectId}']['get']['responses'][200]['content']['application/json'];
export type ProjectStatus = NonNullable<
  NonNullable<
    paths['/api/companies/{companyId}/projects']['post']['requestBody']
  >['content']['application/json']['status']
>;
export const PROJECT_STATUSES = [
  'backlog',
  'planned',
  'in_progress',
  'completed',
  'cancelled',
] as const satisfies readonly ProjectStatus[];
export const projectStatusLabel = (status: string): string => status.replace('_', ' ');
export const projectPath = (companyId: string, projectId: string) => `/c/${companyId}/projects/${projectId}`;

// The skill library ('skills'): the list, one skill, one of its files. Skill activity, the company's
// skill imports and updates, and agent activity (a skill sync changes who uses a skill) refresh them
// (live/invalidation.ts). A skill's update check is kept outside the company's live keys: each check
// calls the code host, so activity must not repeat it; a check is asked for.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Skill = Json<paths['/api/companies/{companyId}/skills']['get']['responses'][200]>[number];
export type SkillDetail = Json<paths['/api/companies/{companyId}/skills/{skillId}']['get']['responses'][200]>;

const skills = companyResource('skills');
export const skillKeys = {
  ...skills,
  list: (companyId: string) => skills.key(companyId, 'list'),
  detail: (companyId: string, skillId: string) => skills.key(companyId, 'detail', skillId),
  file: (companyId: string, skillId: string, path: string) => skills.key(companyId, 'detail', skillId, 'file', path),
  /** Not under the company's prefix, so neither activity nor a reconnect repeats the check. */
  updateStatus: (companyId: string, skillId: string) => ['skill-update-status', companyId, skillId] as const,
};

export const skillsQuery = (companyId: string) =>
  queryOptions({
    queryKey: skillKeys.list(companyId),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/skills', { params: { path: { companyId } } })),
  });

export const skillQuery = (companyId: string, skillId: string) =>
  queryOptions({
    queryKey: skillKeys.detail(companyId, skillId),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/skills/{skillId}', { params: { path: { companyId, skillId } } })),
  });

export const skillFileQuery = (companyId: string, skillId: string, path: string) =>
  queryOptions({
    queryKey: skillKeys.file(companyId, skillId, path),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/skills/{skillId}/files', {
          params: { path: { companyId, skillId }, query: { path } },
        }),
      ),
  });

/** Whether a code-host or catalog skill is behind its tracking ref. */
export const skillUpdateStatusQuery = (companyId: string, skillId: string) =>
  queryOptions({
    queryKey: skillKeys.updateStatus(companyId, skillId),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/skills/{skillId}/update-status', {
          params: { path: { companyId, skillId } },
        }),
      ),
    // A failure is shown with its retry rather than repeated against the host.
    retry: false,
    staleTime: 60_000,
  });

// The company's secrets with their versions and references ('secrets'), refreshed by secret activity
// and by agent activity (an agent's env references secrets; live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';

const secrets = companyResource('secrets');
export const secretKeys = { ...secrets, list: (companyId: string) => secrets.key(companyId, 'list') };

const listSecrets = async (companyId: string) =>
  data(await api.GET('/api/companies/{companyId}/secrets', { params: { path: { companyId } } }));
export type Secret = Awaited<ReturnType<typeof listSecrets>>[number];

export const secretsQuery = (companyId: string) =>
  queryOptions({ queryKey: secretKeys.list(companyId), queryFn: () => listSecrets(companyId) });

// The company's labels (the issue page's picker, the issues list's filter chip and the chips on rows
// and cards), refreshed by label activity (live/invalidation.ts). A company holds at most 200, so one
// read is the whole vocabulary.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

export type Label =
  paths['/api/companies/{companyId}/labels']['get']['responses'][200]['content']['application/json'][number];
export type LabelColor = Label['color'];

const labels = companyResource('labels');
export const labelKeys = { ...labels, list: (companyId: string) => labels.key(companyId, 'list') };

export const labelsQuery = (companyId: string) =>
  queryOptions({
    queryKey: labelKeys.list(companyId),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/labels', { params: { path: { companyId } } })),
  });

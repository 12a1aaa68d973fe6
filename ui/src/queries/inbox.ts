// The board user's inbox ('inbox'): the page and the sidebar's unread count share this one query (one
// request, one cache entry), refreshed by every activity event and run status change.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';

const inbox = companyResource('inbox');
export const inboxKeys = { ...inbox, items: (companyId: string) => inbox.key(companyId, 'items') };

const fetchInbox = async (companyId: string) =>
  data(await api.GET('/api/companies/{companyId}/inbox', { params: { path: { companyId } } }));
export type InboxItem = Awaited<ReturnType<typeof fetchInbox>>['items'][number];

export const inboxQuery = (companyId: string) =>
  queryOptions({ queryKey: inboxKeys.items(companyId), queryFn: () => fetchInbox(companyId) });

// The board inbox as one query: the page and the sidebar's unread count share it (one request, one
// cache entry), and the live layer refreshes it through the 'inbox' resource.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { companyKey } from '../../api/keys';

export type InboxItem = Awaited<ReturnType<typeof fetchInbox>>['items'][number];

async function fetchInbox(companyId: string) {
  return data(await api.GET('/api/companies/{companyId}/inbox', { params: { path: { companyId } } }));
}

export const inboxQuery = (companyId: string) =>
  queryOptions({ queryKey: companyKey(companyId, 'inbox'), queryFn: () => fetchInbox(companyId) });

/** Marks items read; the cached inbox shows them read at once (the sidebar count drops with it), then refetches. */
export function useMarkRead(companyId: string) {
  const queryClient = useQueryClient();
  const key = inboxQuery(companyId).queryKey;
  return useMutation({
    mutationFn: async (keys: string[]) =>
      data(
        await api.POST('/api/companies/{companyId}/inbox/read', { params: { path: { companyId } }, body: { keys } }),
      ),
    onMutate: async (keys) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData(key);
      if (before) {
        const marked = new Set(keys);
        const items = before.items.map((item) => (marked.has(item.key) ? { ...item, read: true } : item));
        queryClient.setQueryData(key, { items, unreadCount: items.filter((item) => !item.read).length });
      }
      return { before };
    },
    onError: (_error, _keys, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

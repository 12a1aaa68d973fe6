// Marking inbox items read: the cached inbox shows them read at once (the sidebar count drops with
// it), goes back if the server refuses, then refetches.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { inboxQuery } from '../../queries/inbox';

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

import { describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { forgetDeleted } from './forget-deleted';

describe('forgetDeleted', () => {
  it('leaves the page before dropping the item, then refreshes the list, never refetching the item', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetchItem = vi.fn(async () => ({ id: 1 }));
    const fetchList = vi.fn(async () => [{ id: 1 }]);
    client.setQueryData(['list'], [{ id: 1 }]);
    await client.fetchQuery({ queryKey: ['item', 1], queryFn: fetchItem });
    // The item's page observes its query until it is left.
    const page = new QueryObserver(client, { queryKey: ['item', 1], queryFn: fetchItem, staleTime: Infinity });
    const stopObserving = page.subscribe(() => undefined);
    const list = new QueryObserver(client, { queryKey: ['list'], queryFn: fetchList });
    const order: string[] = [];

    await forgetDeleted(client, {
      item: ['item', 1],
      lists: [['list']],
      leave: () => {
        order.push(`leave (item cached: ${client.getQueryData(['item', 1]) !== undefined})`);
        stopObserving();
        list.subscribe(() => undefined);
      },
    });

    expect(order).toEqual(['leave (item cached: true)']);
    expect(client.getQueryData(['item', 1])).toBeUndefined();
    expect(fetchItem).toHaveBeenCalledTimes(1);
    expect(fetchList).toHaveBeenCalled();
  });

  it('keeps an item query its page still shows (it would refetch the deleted item)', async () => {
    const client = new QueryClient();
    client.setQueryData(['item', 2], { id: 2 });
    const fetchItem = vi.fn(async () => ({ id: 2 }));
    new QueryObserver(client, { queryKey: ['item', 2], queryFn: fetchItem, staleTime: Infinity }).subscribe(
      () => undefined,
    );
    await forgetDeleted(client, { item: ['item', 2], lists: [] });
    expect(client.getQueryData(['item', 2])).toEqual({ id: 2 });
    expect(fetchItem).not.toHaveBeenCalled();
  });
});

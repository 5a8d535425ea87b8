import type { QueryClient, QueryKey } from '@tanstack/react-query';

export interface Deleted {
  /** The deleted item's own query (its detail page), if it has one. */
  item?: QueryKey;
  /** The lists (and counts) that showed the item: refetched at the end. */
  lists: QueryKey[];
  /** Leaves the item's page (usually a navigate to its list). */
  leave?: () => Promise<void> | void;
}

/**
 * The one order every delete flow clears the cache in: stop any fetch of the item, leave its page, drop the item's
 * query, then refresh the lists. Dropping the item while its page is still shown would make that page fetch the
 * deleted item again (a 404 and a red toast), so only an unobserved item query is removed; it is gone with the page.
 */
export async function forgetDeleted(queryClient: QueryClient, { item, lists, leave }: Deleted): Promise<void> {
  if (item) await queryClient.cancelQueries({ queryKey: item });
  if (leave) await leave();
  if (item) queryClient.removeQueries({ queryKey: item, type: 'inactive' });
  await Promise.all(lists.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

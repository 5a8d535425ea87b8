import { useMatches } from 'react-router';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { EmptyState } from '@/components/empty-state';
import { isPageHandle } from '../route-handle';

/** An honest page for areas that are not built yet: heading, breadcrumbs and a plain notice. */
export function Component() {
  const matches = useMatches();
  const handle = [...matches].reverse().map((m) => m.handle).find(isPageHandle);
  const title = handle?.title ?? 'Page';
  return (
    <>
      {handle?.crumbs && <Breadcrumbs crumbs={handle.crumbs} />}
      <h1 className="h3 mb-3">{title}</h1>
      <EmptyState>{handle?.notice ?? `${title} is not available yet.`}</EmptyState>
    </>
  );
}

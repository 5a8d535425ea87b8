import type { Crumb } from '@/components/breadcrumbs';

/** Static data attached to a route (react-router `handle`). */
export interface PageHandle {
  /** The page heading. */
  title: string;
  /** Breadcrumbs (CRM pages start with "CRM"). */
  crumbs?: Crumb[];
  /** Shown by pages that are not built yet. */
  notice?: string;
}

export const isPageHandle = (handle: unknown): handle is PageHandle =>
  handle !== null && typeof handle === 'object' && 'title' in handle && typeof handle.title === 'string';

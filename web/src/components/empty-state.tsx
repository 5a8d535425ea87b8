import type { ReactNode } from 'react';

/** A plain notice where a page has nothing to show (yet). */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <div className="empty-state border rounded p-5 text-center text-body-secondary" role="status">
      {children}
    </div>
  );
}

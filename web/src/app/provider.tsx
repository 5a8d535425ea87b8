import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Snackbar } from '@/components/snackbar';
import { queryClient as appQueryClient } from '@/lib/query-client';

/** App-wide providers: TanStack Query (with the global error snackbar) and the snackbar host. */
export function AppProvider({ children, queryClient = appQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Snackbar />
    </QueryClientProvider>
  );
}

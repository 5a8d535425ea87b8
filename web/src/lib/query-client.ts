import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { notifyError } from './notifications';

/** Per-query/mutation options read by the global error handler. */
export interface AppMeta extends Record<string, unknown> {
  /** Shown instead of the general "Error {status}: {message}." text. */
  errorMessage?: string;
  /** The caller reports the error itself. */
  silent?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppMeta;
    mutationMeta: AppMeta;
  }
}

function report(error: unknown, meta: AppMeta | undefined): void {
  if (meta?.silent) return;
  // A conflict's message says what to change ("A list with this name already exists"): show it as it is.
  if (error instanceof ApiError && error.status === 409 && error.message) {
    notifyError(error, error.message);
    return;
  }
  notifyError(error, meta?.errorMessage);
}

/** The app's QueryClient: every failed query or mutation shows the generic error snackbar. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _vars, _ctx, mutation) => report(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        // Client errors (4xx) are answers, not glitches: don't retry them.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 1,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}

export const queryClient = createQueryClient();

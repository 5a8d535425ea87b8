import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { getGetMeQueryOptions, getListMyClientsQueryOptions } from '@/api/gen';
import {
  clearSession,
  REDIRECT_KEY,
  setClientSession,
  setUniversalToken,
  takeRedirect,
  tokenClient,
  tokenHasScope,
} from '@/lib/session';
import { ERROR_SELECTING_CLIENT, UNABLE_TO_LOGIN } from '../messages';
import { revokeSession } from '../lib/sign-out';

/** Queries that belong to the login itself, not to a client. */
export function isSessionQuery(key: readonly unknown[]): boolean {
  const first = key[0];
  return typeof first === 'string' && (first.startsWith('/auth-api/auth') || first === '/auth-api/session/clients');
}

/** Drops every cached answer that belongs to a client: data of another client must not survive a switch. */
export function dropClientData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => !isSessionQuery(q.queryKey) });
}

/**
 * After a client is set: the user's permissions must load, or the session is unusable (log out); then go to the
 * stored redirect address or the app's start page.
 */
export function useEnterClient() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    dropClientData(queryClient);
    try {
      await queryClient.fetchQuery({ ...getGetMeQueryOptions(), staleTime: 0 });
    } catch {
      void navigate('/auth/logout', { replace: true });
      return;
    }
    void navigate(takeRedirect() ?? '/', { replace: true });
  }, [navigate, queryClient]);
}

/**
 * Whether agency staff start on the portfolio: they hold several clients and did not ask for a page before signing
 * in (that page is in a client: select-client leads there). When the clients cannot be read, select-client says so.
 */
async function holdsSeveralClients(queryClient: QueryClient): Promise<boolean> {
  if (localStorage.getItem(REDIRECT_KEY)) return false;
  try {
    const clients = await queryClient.fetchQuery({ ...getListMyClientsQueryOptions(), staleTime: 0 });
    return Array.isArray(clients) && clients.length > 1;
  } catch {
    return false;
  }
}

export interface CompleteLoginOptions {
  /** Client-auth mode: the token must act for the client; otherwise "Error selecting client" and logout. */
  clientAuth: boolean;
}

/**
 * Finishes a login that returned tokens. A token without the basic scope is refused ("Unable to login", returned
 * for the caller to show). A token that already acts for a client (client users, client-auth mode) starts the
 * client session and enters the app; a universal token goes on to the portfolio when the user holds several
 * clients, else to select-client. Resolves to an error text or null.
 */
export function useCompleteLogin({ clientAuth }: CompleteLoginOptions) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const enterClient = useEnterClient();
  return useCallback(
    async (accessToken: string, refreshToken?: string | null): Promise<string | null> => {
      if (!tokenHasScope(accessToken, 'basic')) return UNABLE_TO_LOGIN;
      const client = tokenClient(accessToken);
      if (client) {
        setClientSession(accessToken, client.clientId, client.clientShort, refreshToken);
        await enterClient();
        return null;
      }
      if (clientAuth || tokenHasScope(accessToken, 'client')) {
        // The client could not be selected from the token: end the session the server just opened.
        clearSession();
        await revokeSession(accessToken, refreshToken ?? null);
        return ERROR_SELECTING_CLIENT;
      }
      setUniversalToken(accessToken, refreshToken);
      void navigate((await holdsSeveralClients(queryClient)) ? '/portfolio' : '/auth/select-client');
      return null;
    },
    [clientAuth, enterClient, navigate, queryClient],
  );
}

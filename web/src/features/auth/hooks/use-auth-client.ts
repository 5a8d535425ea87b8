import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { useGetAuthConfig } from '@/api/gen';

/** The `?client=` of a client's sign-in link (trimmed), or undefined. */
export function linkClientOf(params: URLSearchParams): string | undefined {
  const value = params.get('client')?.trim();
  return value ? value : undefined;
}

/**
 * The client the public auth calls are for: the client-auth client when the deployment has one, else the `client`
 * query parameter of a client's sign-in link, else none (universal users). Also gives the auth config (loaded for
 * that client, so `clientName` names it) and `withClient`, which keeps the client on links between auth pages.
 */
export function useAuthClient() {
  const [params] = useSearchParams();
  const linkClient = linkClientOf(params);
  const config = useGetAuthConfig(linkClient ? { client: linkClient } : undefined);
  const clientAuthShort = config.data?.clientAuthShort || undefined;
  const client = clientAuthShort ?? linkClient;

  const withClient = useCallback(
    (path: string, extra: Record<string, string> = {}): string => {
      const search = new URLSearchParams(extra);
      if (linkClient && !clientAuthShort) search.set('client', linkClient);
      const query = search.toString();
      return query ? `${path}?${query}` : path;
    },
    [linkClient, clientAuthShort],
  );

  return { config, client, clientAuth: clientAuthShort !== undefined, withClient };
}

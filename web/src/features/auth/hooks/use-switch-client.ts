import { useRef } from 'react';
import { useClientLogin } from '@/api/gen';
import { decodeToken, setClientSession } from '@/lib/session';
import { useEnterClient } from './use-complete-login';

/**
 * Switches the signed-in universal user to a client: exchanges the session for one acting for it, stores the new
 * pair and enters the app (the select-client page and the portfolio share it). `onFailed` runs when the answer
 * carries no usable token.
 */
export function useSwitchClient(onFailed: () => void) {
  const enterClient = useEnterClient();
  // The short name the caller knows, used when the token does not carry one.
  const knownShort = useRef<string | undefined>(undefined);
  const clientLogin = useClientLogin({
    mutation: {
      onSuccess: async (response, { data }) => {
        const token = response?.accessToken;
        const payload = token ? decodeToken(token) : null;
        const short = payload?.clientShort ?? knownShort.current;
        if (!token || !short) {
          onFailed();
          return;
        }
        // The previous session ended on the server: the new pair replaces both tokens.
        setClientSession(token, payload?.clientId ?? data.clientId, short, response.refreshToken);
        await enterClient();
      },
    },
  });
  return {
    switchTo: (clientId: number, short?: string) => {
      knownShort.current = short;
      clientLogin.mutate({ data: { clientId } });
    },
    isPending: clientLogin.isPending,
    variables: clientLogin.variables,
  };
}

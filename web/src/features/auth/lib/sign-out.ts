import { logout } from '@/api/gen';
import { clearSession, getRefreshToken, getToken } from '@/lib/session';

/**
 * Ends a session on the server: the refresh token and the access token (Authorization header) both name it.
 * Never throws: a failed call must not keep anyone signed in locally.
 */
export async function revokeSession(accessToken: string | null, refreshToken: string | null): Promise<void> {
  if (!accessToken && !refreshToken) return;
  try {
    await logout(
      refreshToken ? { refreshToken } : {},
      accessToken ? { headers: { Authorization: `Bearer ${accessToken}` } } : undefined,
    );
  } catch {
    // The server may already have ended the session (expired, revoked); local sign-out goes ahead.
  }
}

/** Forgets the stored session at once, then ends it on the server. */
export function signOut(): Promise<void> {
  const accessToken = getToken();
  const refreshToken = getRefreshToken();
  clearSession();
  return revokeSession(accessToken, refreshToken);
}

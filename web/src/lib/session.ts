/** Session data kept in localStorage: the JWT, the refresh token, the chosen client and the address to return to. */
export const TOKEN_KEY = 'token';
export const REFRESH_TOKEN_KEY = 'refreshToken';
export const CLIENT_ID_KEY = 'clientId';
export const CLIENT_SHORT_KEY = 'clientShort';
export const REDIRECT_KEY = 'redirect';

/** The token's user claim: the server sends an object; older tokens carried a bare id. */
export interface TokenUser {
  id?: number;
  email?: string;
  /** "universal" or "client". */
  kind?: string;
}

export interface TokenPayload {
  user?: number | string | TokenUser;
  scope?: string[] | string;
  clientId?: number | string | null;
  clientShort?: string | null;
  exp?: number;
  [key: string]: unknown;
}

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const getClientId = (): string | null => localStorage.getItem(CLIENT_ID_KEY);
export const getClientShort = (): string | null => localStorage.getItem(CLIENT_SHORT_KEY);
export const getRefreshToken = (): string | null => localStorage.getItem(REFRESH_TOKEN_KEY);

/** Stores the refresh token that goes with the access token; none given forgets the stored one. */
function storeRefreshToken(refreshToken: string | null | undefined): void {
  if (refreshToken) localStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
  else localStorage.removeItem(REFRESH_TOKEN_KEY);
}

/** Stores a universal (basic) token and its refresh token; any previously chosen client is forgotten. */
export function setUniversalToken(token: string, refreshToken?: string | null): void {
  localStorage.setItem(TOKEN_KEY, token);
  storeRefreshToken(refreshToken);
  localStorage.removeItem(CLIENT_ID_KEY);
  localStorage.removeItem(CLIENT_SHORT_KEY);
}

/** Stores a token that acts for a client, its refresh token, and the client's id and short name. */
export function setClientSession(
  token: string,
  clientId: number | string,
  clientShort: string,
  refreshToken?: string | null,
): void {
  localStorage.setItem(TOKEN_KEY, token);
  storeRefreshToken(refreshToken);
  localStorage.setItem(CLIENT_ID_KEY, String(clientId));
  localStorage.setItem(CLIENT_SHORT_KEY, clientShort);
}

/** A refreshed pair replaces the stored tokens; the chosen client stays. */
export function setTokens(token: string, refreshToken: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
}

/** Logout: forget the tokens, client id and client short name. */
export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(REFRESH_TOKEN_KEY);
  localStorage.removeItem(CLIENT_ID_KEY);
  localStorage.removeItem(CLIENT_SHORT_KEY);
}

/** True when a token for a chosen client is stored (what product routes need). */
export const hasClientSession = (): boolean => getToken() !== null && getClientId() !== null;

/** Remembers the address a signed-out user asked for (auth pages are never remembered). */
export function storeRedirect(path: string): void {
  if (path.startsWith('/auth')) return;
  localStorage.setItem(REDIRECT_KEY, path);
}

/** Returns and forgets the remembered address. */
export function takeRedirect(): string | null {
  const path = localStorage.getItem(REDIRECT_KEY);
  localStorage.removeItem(REDIRECT_KEY);
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}

function base64UrlDecode(input: string): string {
  const base64 = input.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Decodes a JWT's payload (no signature check: the server checks tokens). Null when malformed. */
export function decodeToken(token: string): TokenPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    return payload !== null && typeof payload === 'object' ? (payload as TokenPayload) : null;
  } catch {
    return null;
  }
}

export function tokenScopes(payload: TokenPayload | null): string[] {
  const scope = payload?.scope;
  if (Array.isArray(scope)) return scope.map(String);
  if (typeof scope === 'string') return scope.split(/[\s,]+/).filter(Boolean);
  return [];
}

export const tokenHasScope = (token: string, scope: string): boolean =>
  tokenScopes(decodeToken(token)).includes(scope);

/** The client a token acts for: its client scope plus the clientId and clientShort claims, or null. */
export function tokenClient(token: string): { clientId: number | string; clientShort: string } | null {
  const payload = decodeToken(token);
  if (!tokenScopes(payload).includes('client')) return null;
  const clientId = payload?.clientId;
  const clientShort = payload?.clientShort;
  if (clientId === undefined || clientId === null || clientId === '' || !clientShort) return null;
  return { clientId, clientShort };
}

/** "client" for a client user's token, "universal" for a universal user's, null when the token does not say. */
export function tokenUserKind(token: string | null): string | null {
  if (!token) return null;
  const user = decodeToken(token)?.user;
  return user !== null && typeof user === 'object' && typeof user.kind === 'string' ? user.kind : null;
}

/**
 * Where a signed-out user logs in again: a client user's login page names their client (client users sign in
 * for a client), everyone else's is plain /auth/login.
 */
export function loginPathFor(token: string | null): string {
  const clientShort = token ? decodeToken(token)?.clientShort : null;
  if (tokenUserKind(token) === 'client' && clientShort) return `/auth/login?client=${encodeURIComponent(clientShort)}`;
  return '/auth/login';
}

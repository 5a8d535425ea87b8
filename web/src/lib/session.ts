/** Session data kept in localStorage: the JWT, the chosen client and the address to return to. */
export const TOKEN_KEY = 'token';
export const CLIENT_ID_KEY = 'clientId';
export const CLIENT_SHORT_KEY = 'clientShort';
export const REDIRECT_KEY = 'redirect';

export interface TokenPayload {
  user?: number | string;
  scope?: string[] | string;
  clientId?: number | string | null;
  clientShort?: string | null;
  exp?: number;
  [key: string]: unknown;
}

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const getClientId = (): string | null => localStorage.getItem(CLIENT_ID_KEY);
export const getClientShort = (): string | null => localStorage.getItem(CLIENT_SHORT_KEY);

/** Stores a universal (basic) token; any previously chosen client is forgotten. */
export function setUniversalToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.removeItem(CLIENT_ID_KEY);
  localStorage.removeItem(CLIENT_SHORT_KEY);
}

export function setClientSession(token: string, clientId: number | string, clientShort: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(CLIENT_ID_KEY, String(clientId));
  localStorage.setItem(CLIENT_SHORT_KEY, clientShort);
}

/** Logout: forget the token, client id and client short name. */
export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
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

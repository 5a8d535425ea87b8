import type { TokenPair } from '@/api/gen/model';
import {
  clearSession,
  getClientId,
  getClientShort,
  getRefreshToken,
  getToken,
  loginPathFor,
  setTokens,
  storeRedirect,
} from './session';

/** An HTTP error from the server: `message` is the JSON body's message, or else the status text. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Error type of every generated hook (orval picks this up from the mutator file). */
export type ErrorType<_E> = ApiError;
/** Request body type of every generated hook. */
export type BodyType<B> = B;

/** Calls to the public auth endpoints carry no session headers. */
const isPublicAuthUrl = (url: string): boolean => url.startsWith('/auth-api/auth');

function defaultUnauthorizedHandler(): void {
  const loginPath = loginPathFor(getToken());
  clearSession();
  const { pathname, search, hash } = window.location;
  if (pathname.startsWith('/auth')) return;
  storeRedirect(pathname + search + hash);
  window.location.assign(loginPath);
}

let onUnauthorized: () => void = defaultUnauthorizedHandler;

/** Replaces what happens when an /api call answers 401 (tests use this). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler ?? defaultUnauthorizedHandler;
}

async function errorMessage(res: Response, fallback?: (res: Response) => string): Promise<string> {
  try {
    const text = await res.text();
    if (text) {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) {
        return body.message;
      }
    }
  } catch {
    // not JSON: fall back to the status text
  }
  return fallback ? fallback(res) : res.statusText || `HTTP ${res.status}`;
}

export const REFRESH_URL = '/auth-api/auth/refresh';

let refreshing: Promise<boolean> | null = null;

async function exchangeRefreshToken(refreshToken: string): Promise<boolean> {
  try {
    const res = await fetch(REFRESH_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    if (!res.ok) return false;
    const pair = (await res.json()) as Partial<TokenPair>;
    if (!pair.accessToken || !pair.refreshToken) return false;
    // A logout while the call ran wins: don't bring the session back.
    if (getRefreshToken() !== refreshToken) return false;
    setTokens(pair.accessToken, pair.refreshToken);
    return true;
  } catch {
    return false;
  }
}

/** Runs `task` while holding a lock shared by the app's tabs (Web Locks), or just runs it where there are none. */
function withRefreshLock(task: () => Promise<boolean>): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // request() resolves with the task's own promise, which then() unwraps.
  return locks ? locks.request('compass-token-refresh', task).then((done) => done) : task();
}

/**
 * Exchanges the stored refresh token for a new pair. Single-flight: concurrent callers share one call (the server
 * rotates refresh tokens, so a second call with the same one would fail), and tabs take turns: a tab that waited
 * while another one refreshed uses that tab's new pair (the tokens are shared through localStorage). Resolves false
 * when there is no refresh token or the server refuses it.
 */
export function refreshSession(): Promise<boolean> {
  if (!refreshing) {
    const seen = getRefreshToken();
    if (!seen) return Promise.resolve(false);
    refreshing = withRefreshLock(async () => {
      const current = getRefreshToken();
      if (!current) return false;
      if (current !== seen) return true;
      return exchangeRefreshToken(current);
    }).finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

function sessionHeaders(init: RequestInit | undefined, token: string | null): Headers {
  const headers = new Headers(init?.headers);
  const clientShort = getClientShort();
  const clientId = getClientId();
  // A header the caller passed explicitly (e.g. the public form viewer's client-short) always wins.
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (clientShort && !headers.has('client-short')) headers.set('client-short', clientShort);
  if (clientId && !headers.has('client-id')) headers.set('client-id', clientId);
  return headers;
}

/**
 * A session call that answers with the raw response: adds the Bearer token and the client-short and client-id
 * headers (except for /auth-api/auth…) unless the caller already set them, sends string bodies as JSON and throws
 * ApiError on non-2xx responses (`fallbackMessage` names the error when the body carries no message).
 *
 * A 401 from a session call (anything but /auth-api/auth…) first refreshes the tokens once (shared by concurrent
 * calls) and retries the request with the new access token; when that is impossible the session ends (the
 * unauthorized handler: clear it and go to login).
 */
export async function sessionFetch(
  url: string,
  init?: RequestInit,
  fallbackMessage?: (res: Response) => string,
): Promise<Response> {
  const isPublic = isPublicAuthUrl(url);
  const explicitAuthorization = new Headers(init?.headers).has('Authorization');
  const send = (token: string | null) => {
    const headers = isPublic ? new Headers(init?.headers) : sessionHeaders(init, token);
    if (typeof init?.body === 'string' && !headers.has('Content-Type')) {
      headers.set('Content-Type', 'application/json');
    }
    return fetch(url, { ...init, headers });
  };

  const sentToken = isPublic ? null : getToken();
  let res = await send(sentToken);

  if (res.status === 401 && !isPublic && !explicitAuthorization && sentToken) {
    // Another call may have refreshed the tokens while this one was on its way: then just retry.
    const current = getToken();
    const renewed = current !== null && current !== sentToken ? true : await refreshSession();
    if (renewed) res = await send(getToken());
  }

  if (!res.ok) {
    const message = await errorMessage(res, fallbackMessage);
    if (res.status === 401 && !isPublic) onUnauthorized();
    throw new ApiError(res.status, message);
  }
  return res;
}

/** The fetch mutator used by every generated API call: a session call (above) that returns the parsed body. */
export const customFetch = async <T>(url: string, init?: RequestInit): Promise<T> => {
  const res = await sessionFetch(url, init);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  const contentType = res.headers.get('Content-Type') ?? '';
  return (contentType.includes('json') ? JSON.parse(text) : text) as T;
};

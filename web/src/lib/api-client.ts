import { clearSession, getClientId, getClientShort, getToken, storeRedirect } from './session';

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
  clearSession();
  const { pathname, search, hash } = window.location;
  if (pathname.startsWith('/auth')) return;
  storeRedirect(pathname + search + hash);
  window.location.assign('/auth/login');
}

let onUnauthorized: () => void = defaultUnauthorizedHandler;

/** Replaces what happens when an /api call answers 401 (tests use this). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler ?? defaultUnauthorizedHandler;
}

async function errorMessage(res: Response): Promise<string> {
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
  return res.statusText || `HTTP ${res.status}`;
}

/**
 * The fetch mutator used by every generated API call. Adds the Bearer token and the client-short and client-id
 * headers (except for /auth-api/auth…) unless the caller already set them, sends string bodies as JSON, throws ApiError on non-2xx responses and
 * returns the parsed body.
 */
export const customFetch = async <T>(url: string, init?: RequestInit): Promise<T> => {
  const headers = new Headers(init?.headers);
  if (!isPublicAuthUrl(url)) {
    const token = getToken();
    const clientShort = getClientShort();
    const clientId = getClientId();
    // A header the caller passed explicitly (e.g. the public form viewer's client-short) always wins.
    if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    if (clientShort && !headers.has('client-short')) headers.set('client-short', clientShort);
    if (clientId && !headers.has('client-id')) headers.set('client-id', clientId);
  }
  if (typeof init?.body === 'string' && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }

  const res = await fetch(url, { ...init, headers });

  if (!res.ok) {
    const message = await errorMessage(res);
    if (res.status === 401 && url.startsWith('/api')) onUnauthorized();
    throw new ApiError(res.status, message);
  }

  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  const contentType = res.headers.get('Content-Type') ?? '';
  return (contentType.includes('json') ? JSON.parse(text) : text) as T;
};

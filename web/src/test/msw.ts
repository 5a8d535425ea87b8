import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

/** The app's error body, as the api answers: `{ message }` with the status. */
export const errorReply = (message: string, status: number, statusText = '') =>
  HttpResponse.json({ message }, { status, statusText });

/**
 * Answers every address the test did not mention with 404 `{ message }` (what the hand-written fetch stubs used to
 * do), so a screen that calls something the test does not care about fails in the open rather than hanging.
 */
export const notFound: HttpHandler = http.all('*', ({ request }) =>
  errorReply(`No handler for ${request.method} ${new URL(request.url).pathname}`, 404, 'Not Found'),
);

/**
 * The MSW server of a test file. Tests answer the app's calls with `server.use(...)`
 * and read what the app sent from `sent()`.
 */
export const server = setupServer(notFound);

// The server runs in the test files that import this module (hooks registered here belong to that file).
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  resetSent();
});
afterAll(() => server.close());

/** One request as the app sent it: `url` is the path and query, as the app wrote it. */
export interface SentRequest {
  method: string;
  url: string;
  path: string;
  headers: Headers;
  /** The JSON body parsed, a FormData for multipart bodies, the text otherwise (undefined when there is none). */
  body: unknown;
}

let requests: SentRequest[] = [];
const pending = new Map<string, Promise<void>>();

/**
 * The wire's FormData in the test's own classes, so `toBeInstanceOf(FormData)` and `toBeInstanceOf(File)` hold.
 * (Vitest's jsdom bridge drops a file's name on the way to fetch: the name arrives as "blob", so tests that check the
 * name read it where the app appended the file.)
 */
async function testRealmFormData(wire: globalThis.FormData): Promise<FormData> {
  const form = new FormData();
  for (const [key, value] of wire.entries()) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, new File([await value.arrayBuffer()], value.name, { type: value.type }));
  }
  return form;
}

async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get('Content-Type') ?? '';
  if (type.startsWith('multipart/form-data')) return testRealmFormData(await request.formData());
  const text = await request.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

// Recorded when a request starts, before any handler answers, so a handler that throws or an unknown address is
// recorded too. The body is read from a clone while the handlers run.
server.events.on('request:start', ({ request, requestId }) => {
  const url = new URL(request.url);
  const entry: SentRequest = {
    method: request.method,
    url: url.origin === window.location.origin ? url.pathname + url.search : request.url,
    path: url.pathname,
    headers: new Headers(request.headers),
    body: undefined,
  };
  requests.push(entry);
  pending.set(
    requestId,
    readBody(request.clone()).then((body) => {
      entry.body = body;
    }),
  );
});

/** Waits until the bodies of the requests sent so far are read (they are by the time the app saw the answers). */
export async function settled(): Promise<void> {
  await Promise.all(pending.values());
}

/** The requests sent in this test, oldest first, optionally only those to `path` (without the query). */
export function sent(path?: string): SentRequest[] {
  return path === undefined ? [...requests] : requests.filter((r) => r.path === path);
}

/** The first request sent with this method (and path), or throws. */
export function sentOnce(method: string, path?: string): SentRequest {
  const found = requests.find((r) => r.method === method && (path === undefined || r.path === path));
  if (!found) throw new Error(`No ${method} ${path ?? ''} was sent; sent: ${requests.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  return found;
}

export function resetSent(): void {
  requests = [];
  pending.clear();
}

/**
 * Watches the files the app appends to FormData bodies and answers the name of the one under `field`: Vitest's jsdom
 * bridge sends every file as "blob", so a test that checks the name the app gave reads it here.
 */
export function appendedFileNames(): (field: string) => string | undefined {
  const append = vi.spyOn(FormData.prototype, 'append');
  return (field) => {
    const value = append.mock.calls.find(([name]) => name === field)?.[1];
    return value instanceof File ? value.name : undefined;
  };
}

import { http } from 'msw';
import { resetSent, sent, server, settled } from '@/test/msw';

/** A reply: a Response (answered once per call, cloned) or a function of the path and query the app asked for. */
export type RouteReply = Response | ((url: string) => Response | Promise<Response>);

/**
 * The test server answering by "METHOD path" (the path without its query) or by plain path, e.g.
 * `{ 'POST /auth-api/auth/login': jsonResponse(…), '/auth-api/auth/config': jsonResponse(…) }`; a call replaces
 * what an earlier one set up and forgets what was sent. Unknown addresses answer 404. `calls(path)` lists what
 * was sent there.
 */
export function fetchRoutes(routes: Record<string, RouteReply>) {
  server.resetHandlers();
  resetSent();
  const paths = new Set(Object.keys(routes).map((key) => key.slice(key.indexOf(' ') + 1)));
  server.use(
    ...[...paths].map((path) =>
      http.all(path, async ({ request }) => {
        const reply = routes[`${request.method} ${path}`] ?? routes[path];
        if (reply === undefined) return undefined;
        // The request's body is recorded before the app sees the answer, so `calls` reads it at once.
        await settled();
        const url = new URL(request.url);
        return typeof reply === 'function' ? reply(url.pathname + url.search) : reply.clone();
      }),
    ),
  );
  const calls = (path: string) => sent(path).map(({ url, body, headers }) => ({ url, body, headers }));
  return { calls };
}

export const CONFIG = { providerName: 'Example Agency' };

import { vi } from 'vitest';
import { jsonResponse } from '@/test/utils';

export type RouteReply = Response | ((init: RequestInit | undefined, url: string) => Response | Promise<Response>);

/**
 * A fetch mock that answers by "METHOD path" (the path without its query) or by plain path, e.g.
 * `{ 'POST /auth-api/auth/login': jsonResponse(…), '/auth-api/auth/config': jsonResponse(…) }`. A Response value
 * is answered once per call (cloned); unknown addresses answer 404. `calls(path)` lists what was sent there.
 */
export function fetchRoutes(routes: Record<string, RouteReply>) {
  const mock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    const path = url.split('?')[0];
    const method = (init?.method ?? 'GET').toUpperCase();
    const reply = routes[`${method} ${path}`] ?? routes[path];
    if (reply === undefined) return jsonResponse({ message: `No mock for ${method} ${url}` }, 404, 'Not Found');
    return typeof reply === 'function' ? reply(init, url) : reply.clone();
  });
  const calls = (path: string) =>
    mock.mock.calls
      .filter(([input]) => String(input).split('?')[0] === path)
      .map(([input, init]) => ({
        url: String(input),
        init,
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        headers: new Headers(init?.headers),
      }));
  return { mock, calls };
}

export const CONFIG = { providerName: 'Example Agency' };

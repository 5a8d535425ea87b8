import type { ReactElement, ReactNode } from 'react';
import { render, waitFor, type RenderOptions } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, MemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { expect } from 'vitest';
import { Snackbar } from '@/components/snackbar';
import { createQueryClient } from '@/lib/query-client';

export function jsonResponse(body: unknown, status = 200, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
}

const base64Url = (value: unknown): string =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned JWT with the given payload (the client never checks signatures). */
export const fakeJwt = (payload: Record<string, unknown>): string =>
  `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(payload)}.signature`;

/** A QueryClient like the app's, without retries (tests should not wait for them). */
export function testQueryClient(): QueryClient {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
  return client;
}

export function renderWithProviders(
  ui: ReactElement,
  { route = '/', queryClient = testQueryClient(), ...options }: { route?: string; queryClient?: QueryClient } & RenderOptions = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      <Snackbar />
    </QueryClientProvider>
  );
  return { queryClient, ...render(ui, { wrapper: Wrapper, ...options }) };
}

/** Like renderWithProviders, inside a data router: for screens that block navigation (useBlocker) or use loaders. */
export function renderWithDataRouter(
  routes: RouteObject[],
  { route = '/', queryClient = testQueryClient() }: { route?: string; queryClient?: QueryClient } = {},
) {
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  return {
    queryClient,
    router,
    ...render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Snackbar />
      </QueryClientProvider>,
    ),
  };
}

/**
 * Waits until no query is fetching: the answers the app asked for have arrived and are rendered. Call it after the
 * request in question was sent, before asserting that something is absent (a fixed wait would also pass when the
 * answer comes late).
 */
export async function queriesSettled(queryClient: QueryClient): Promise<void> {
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
}

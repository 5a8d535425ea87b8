import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { CONFIG, fetchRoutes, type RouteReply } from '@/features/auth/testing/fetch-routes';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { fakeJwt, jsonResponse, testQueryClient } from '@/test/utils';

let api: ReturnType<typeof fetchRoutes>;

const ME = { id: 1, kind: 'universal', email: 'a@b.co', firstName: 'Ada', lastName: 'L', permissions: [], universalPermissions: [], canSwitchClient: true };
const CLIENTS = [
  { id: 3, label: 'Acme for Congress', short: 'acme' },
  { id: 5, label: 'Other Committee', short: 'other' },
];

function mockApi(routes: Record<string, RouteReply>) {
  api = fetchRoutes({
    '/auth-api/auth/config': jsonResponse(CONFIG),
    '/auth-api/session/me': jsonResponse(ME),
    '/auth-api/session/clients': jsonResponse(CLIENTS),
    '/api': jsonResponse({ id: 1, client_id: 3, client_name: 'Acme for Congress', client_short: 'acme', mediaEnabled: false }),
    '/api/jobs': jsonResponse([]),
    'POST /auth-api/auth/logout': new Response(null, { status: 204 }),
    ...routes,
  });
}

beforeEach(() => mockApi({}));
afterEach(() => {
  resetTrackedJobs();
  clearSnacks();
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = testQueryClient();
  render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router, queryClient };
}

const universalClientToken = fakeJwt({ user: { id: 1, kind: 'universal' }, scope: ['basic', 'client'], clientId: 3, clientShort: 'acme' });

function signIn(token = universalClientToken) {
  localStorage.setItem('token', token);
  localStorage.setItem('refreshToken', 'refresh-1');
  localStorage.setItem('clientId', '3');
  localStorage.setItem('clientShort', 'acme');
}

describe('logout', () => {
  it('ends the session on the server with the refresh token and the access token, clears everything, goes to login', async () => {
    signIn();
    const { router, queryClient } = renderAt('/auth/logout');
    queryClient.setQueryData(['/api/crm-list'], [{ id: 1 }]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    const [call] = api.calls('/auth-api/auth/logout');
    expect(call.body).toEqual({ refreshToken: 'refresh-1' });
    expect(call.headers.get('Authorization')).toBe(`Bearer ${universalClientToken}`);
    for (const key of ['token', 'refreshToken', 'clientId', 'clientShort']) expect(localStorage.getItem(key)).toBeNull();
    expect(queryClient.getQueryData(['/api/crm-list'])).toBeUndefined();
  });

  it('still logs out locally when the server call fails', async () => {
    signIn();
    mockApi({ 'POST /auth-api/auth/logout': () => HttpResponse.error() });
    const { router } = renderAt('/auth/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("a client user goes back to their client's login page", async () => {
    signIn(fakeJwt({ user: { id: 4, kind: 'client' }, scope: ['basic', 'client'], clientId: 3, clientShort: 'acme' }));
    const { router } = renderAt('/auth/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?client=acme');
  });
});

describe('select client', () => {
  it('stores the new token pair of the client login and enters the app', async () => {
    localStorage.setItem('token', fakeJwt({ user: { id: 1, kind: 'universal' }, scope: ['basic'] }));
    localStorage.setItem('refreshToken', 'refresh-universal');
    const other = fakeJwt({ user: { id: 1, kind: 'universal' }, scope: ['basic', 'client'], clientId: 5, clientShort: 'other' });
    mockApi({ 'POST /auth-api/session/client-login': jsonResponse({ accessToken: other, refreshToken: 'refresh-other' }) });
    const { router } = renderAt('/auth/select-client');
    await screen.findByRole('option', { name: 'Other Committee' });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'Other Committee');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.calls('/auth-api/session/client-login')[0].body).toEqual({ clientId: 5 });
    expect(localStorage.getItem('token')).toBe(other);
    expect(localStorage.getItem('refreshToken')).toBe('refresh-other');
    expect(localStorage.getItem('clientId')).toBe('5');
    expect(localStorage.getItem('clientShort')).toBe('other');
  });

  it('no token returned: "Error selecting client"', async () => {
    localStorage.setItem('token', fakeJwt({ user: { id: 1, kind: 'universal' }, scope: ['basic'] }));
    mockApi({ 'POST /auth-api/session/client-login': jsonResponse({}) });
    renderAt('/auth/select-client');
    await screen.findByRole('option', { name: 'Other Committee' });
    await userEvent.selectOptions(screen.getByLabelText('Client'), 'Other Committee');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Error selecting client')).toBeInTheDocument();
    expect(localStorage.getItem('clientId')).toBeNull();
  });

  it('is hidden in client-auth mode: a signed-in user goes to the app, others to login', async () => {
    mockApi({ '/auth-api/auth/config': jsonResponse({ ...CONFIG, clientAuthShort: 'acme', clientName: 'Acme for Congress' }) });
    signIn();
    const first = renderAt('/auth/select-client');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByLabelText('Client')).not.toBeInTheDocument();
  });

  it('is hidden in client-auth mode for a universal token without a client too', async () => {
    mockApi({ '/auth-api/auth/config': jsonResponse({ ...CONFIG, clientAuthShort: 'acme' }) });
    localStorage.setItem('token', fakeJwt({ user: { id: 1, kind: 'universal' }, scope: ['basic'] }));
    const { router } = renderAt('/auth/select-client');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
  });
});

describe('switch client', () => {
  it('clears cached data and returns to select-client', async () => {
    signIn();
    const { router, queryClient } = renderAt('/dashboard');
    await screen.findByText('Acme for Congress');
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Switch Client' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/select-client'));
    expect(queryClient.getQueryData(['/api'])).toBeUndefined();
    expect(localStorage.getItem('token')).toBe(universalClientToken);
  });
});

describe('auth shell title', () => {
  it('"Compass Login" plus the client name of a client sign-in link', async () => {
    mockApi({ '/auth-api/auth/config': (url) => jsonResponse(url.includes('client=e2e') ? { ...CONFIG, clientName: 'E2E Campaign' } : CONFIG) });
    renderAt('/auth/login?client=e2e');
    expect(await screen.findByRole('heading', { name: 'Compass Login - E2E Campaign' })).toBeInTheDocument();
    expect(api.calls('/auth-api/auth/config')[0].url).toBe('/auth-api/auth/config?client=e2e');
  });

  it('"Compass Login - {client}" in client-auth mode', async () => {
    mockApi({ '/auth-api/auth/config': jsonResponse({ ...CONFIG, clientAuthShort: 'acme', clientName: 'Acme for Congress' }) });
    renderAt('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Compass Login - Acme for Congress' })).toBeInTheDocument();
  });

  it('plain "Compass Login" otherwise', async () => {
    renderAt('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Compass Login' })).toBeInTheDocument();
  });
});

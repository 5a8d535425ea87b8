import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Me } from '@/api/gen/model';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { sent, server } from '@/test/msw';
import { fakeJwt, testQueryClient } from '@/test/utils';
import { AppProvider } from '../../provider';
import { routes } from '../../router';

const DENIED = 'You do not have permission to view this page';

const ME: Me = {
  id: 1,
  kind: 'client',
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions: [],
  universalPermissions: [],
  canSwitchClient: false,
};

function answer(me: Me) {
  server.use(
    http.all('/auth-api/session/me', () => HttpResponse.json(me)),
    http.all('/api', () => HttpResponse.json({ id: 1, client_id: 3, client_name: 'Acme', client_short: 'acme' })),
    http.all('/auth-api/auth/config', () => HttpResponse.json({ providerName: 'Example Agency' })),
    http.all('/api/roles/permission-names', () => HttpResponse.json([{ id: 'pageContacts', label: 'pageContacts' }])),
    // Every other list the pages load (audit events included) is empty.
    http.all('/api/*', () => HttpResponse.json([])),
    http.all('/auth-api/session/universal-users', () => HttpResponse.json([])),
    http.all('/auth-api/session/clients', () => HttpResponse.json([])),
    http.all('*', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  );
}

beforeEach(() => {
  localStorage.setItem('token', fakeJwt({ user: 1, scope: ['basic', 'client'], clientId: 3, clientShort: 'acme' }));
  localStorage.setItem('clientId', '3');
  localStorage.setItem('clientShort', 'acme');
});
afterEach(() => resetTrackedJobs());

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider queryClient={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

const called = (prefix: string) => sent().some((r) => r.url.startsWith(prefix));

describe('permission-guarded routes', () => {
  it.each([
    ['/users/roles', 'Manage Roles', '/api/roles'],
    ['/users/manage', 'Manage Users', '/api/users'],
    ['/users/universal', 'Manage Universal Users', '/auth-api/session/universal-users'],
    ['/contacts', 'Contact Search', '/api/contacts'],
    ['/contacts/import', 'Import contacts', '/api/contacts'],
    ['/segments/origin-codes', 'Contact Origin Codes', '/api/external-origin-code'],
  ])('%s shows the notice, and never loads the page, for a user without the permission', async (path, heading, api) => {
    answer(ME);
    renderAt(path);
    expect(await screen.findByText(DENIED)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: heading })).not.toBeInTheDocument();
    expect(called(api)).toBe(false);
  });

  it('Manage Roles needs the client "edit role"', async () => {
    answer({ ...ME, permissions: ['edit role'] });
    renderAt('/users/roles');
    expect(await screen.findByRole('heading', { name: 'Manage Roles' })).toBeInTheDocument();
    expect(screen.queryByText(DENIED)).not.toBeInTheDocument();
  });

  it('Manage Users needs the client "view user"; the universal one is not enough', async () => {
    answer({ ...ME, kind: 'universal', universalPermissions: ['view user'] });
    renderAt('/users/manage');
    expect(await screen.findByText(DENIED)).toBeInTheDocument();
  });

  it('Manage Universal Users needs the universal "view user"', async () => {
    answer({ ...ME, kind: 'universal', universalPermissions: ['view user'] });
    renderAt('/users/universal');
    expect(await screen.findByRole('heading', { name: 'Manage Universal Users' })).toBeInTheDocument();
    expect(screen.queryByText(DENIED)).not.toBeInTheDocument();
  });

  it('Contact Search opens with pageContacts', async () => {
    answer({ ...ME, permissions: ['pageContacts'] });
    renderAt('/contacts');
    expect(await screen.findByRole('heading', { name: 'Contact Search' })).toBeInTheDocument();
    expect(screen.queryByText(DENIED)).not.toBeInTheDocument();
  });

  it('the profile needs only a sign-in, and /users leads to it', async () => {
    answer(ME);
    const router = renderAt('/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/profile'));
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByText(DENIED)).not.toBeInTheDocument();
  });
});

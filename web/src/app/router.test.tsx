import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { sent, server } from '@/test/msw';
import { fakeJwt, testQueryClient } from '@/test/utils';
import { AppProvider } from './provider';
import { routes } from './router';

const ME = {
  id: 1,
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  kind: 'client',
  permissions: [],
  universalPermissions: [],
};
const SETTINGS = { id: 1, client_id: 3, client_name: 'Acme for Congress', client_short: 'acme', mediaEnabled: false };

beforeEach(() => {
  server.use(
    http.all('/auth-api/session/me', () => HttpResponse.json(ME)),
    http.all('/api', () => HttpResponse.json(SETTINGS)),
    http.all('/auth-api/auth/config', () => HttpResponse.json({ providerName: 'Example Agency' })),
    http.all('/api/jobs', () => HttpResponse.json([])),
    http.all('*', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  );
});

afterEach(() => resetTrackedJobs());

function signIn() {
  localStorage.setItem('token', fakeJwt({ user: 1, scope: ['basic', 'client'], clientId: 3, clientShort: 'acme' }));
  localStorage.setItem('clientId', '3');
  localStorage.setItem('clientShort', 'acme');
}

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProvider queryClient={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('routes', () => {
  it('redirects an unknown path to the dashboard', async () => {
    signIn();
    const router = renderAt('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    await waitFor(() => expect(sent().some((r) => r.url === '/api/dashboard')).toBe(true));
    expect(await screen.findByText('Acme for Congress')).toBeInTheDocument();
  });

  it('redirects the empty path to the dashboard', async () => {
    signIn();
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('sends a signed-out user to the login page and remembers the address', async () => {
    const router = renderAt('/jobs?page=2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(localStorage.getItem('redirect')).toBe('/jobs?page=2');
    expect(await screen.findByRole('heading', { name: 'Compass Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });

  it('shows CRM breadcrumbs starting with "CRM"', async () => {
    signIn();
    renderAt('/crm-list-add');
    const crumbs = await screen.findByRole('navigation', { name: 'breadcrumb' });
    expect(crumbs.querySelector('li')).toHaveTextContent('CRM');
    expect(crumbs).toHaveTextContent('CRMListsCreate List');
  });

  it('logout clears the session and goes to the login page', async () => {
    signIn();
    const router = renderAt('/auth/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('clientId')).toBeNull();
    expect(localStorage.getItem('clientShort')).toBeNull();
  });

  it("resumes polling the user's recent unfinished jobs when pollJobs is set", async () => {
    signIn();
    localStorage.setItem('pollJobs', '1');
    const running = {
      id: 9,
      _id: 9,
      label: 'Upload list',
      command: 'upload-list',
      status: 'running',
      progress: 30,
      completed: false,
      is_active: true,
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
      user: { id: ME.id, kind: ME.kind },
    };
    const someoneElses = { ...running, id: 10, _id: 10, label: 'Other upload', user: { id: 2, kind: 'client' } };
    server.use(
      http.all('/api/jobs', () => HttpResponse.json([running, someoneElses])),
      http.all('/api/jobs/9', () => HttpResponse.json(running)),
    );
    renderAt('/dashboard');
    expect(await screen.findByText('Upload list')).toBeInTheDocument();
    expect(screen.queryByText('Other upload')).not.toBeInTheDocument();
    await waitFor(() => expect(sent().some((r) => r.url === '/api/jobs/9')).toBe(true));
  });

  it('does not look for jobs to resume when pollJobs is not set', async () => {
    signIn();
    renderAt('/dashboard');
    await waitFor(() => expect(sent().some((r) => r.url === '/api/dashboard')).toBe(true));
    expect(sent().some((r) => r.url === '/api/jobs')).toBe(false);
  });

  it('the System page is only for those allowed to change settings (issue 17, bug 5)', async () => {
    signIn();
    renderAt('/system');
    expect(await screen.findByText('You do not have permission to view this page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'System' })).not.toBeInTheDocument();
  });

  it('the form viewer needs no sign-in and has no app shell', async () => {
    server.use(
      http.all('/api/crm-form/4/viewer', () =>
        HttpResponse.json({ id: 4, name: 'Join', bodyHtml: '<form><p>Join us</p></form>' }),
      ),
      http.all('*', () => new HttpResponse(null, { status: 204 })),
    );
    const router = renderAt('/form-viewer;id=4;client=acme');
    expect(await screen.findByText('Join us')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/form-viewer;id=4;client=acme');
    expect(screen.queryByText('Acme for Congress')).not.toBeInTheDocument();
    const viewer = sent().find((r) => r.url === '/api/crm-form/4/viewer')!;
    expect(viewer.headers.get('client-short')).toBe('acme');
  });

  it('the forms pages are built', async () => {
    signIn();
    renderAt('/crm-forms');
    expect(await screen.findByRole('button', { name: 'Send Form' })).toBeInTheDocument();
  });
});

import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetTrackedJobs } from '@/lib/job-tracker';
import { fakeJwt, jsonResponse, testQueryClient } from '@/test/utils';
import { AppProvider } from './provider';
import { routes } from './router';

const fetchMock = vi.fn<typeof fetch>();

const ME = {
  id: 1,
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  permissions: [],
  universalPermissions: [],
};
const SETTINGS = { id: 1, client_id: 3, client_name: 'Acme for Congress', client_short: 'acme', mediaEnabled: false };

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  fetchMock.mockImplementation((input) => {
    const url = String(input);
    if (url === '/auth-api/session/me') return Promise.resolve(jsonResponse(ME));
    if (url === '/api') return Promise.resolve(jsonResponse(SETTINGS));
    if (url === '/auth-api/auth/config') return Promise.resolve(jsonResponse({ providerName: 'Example Agency' }));
    if (url === '/api/jobs') return Promise.resolve(jsonResponse([]));
    return Promise.resolve(jsonResponse({ message: 'Not found' }, 404));
  });
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
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/dashboard')).toBe(true));
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
      user: { id: ME.id },
    };
    const someoneElses = { ...running, id: 10, _id: 10, label: 'Other upload', user: { id: 2 } };
    const base = fetchMock.getMockImplementation();
    fetchMock.mockImplementation((input, init) => {
      const url = String(input);
      if (url === '/api/jobs') return Promise.resolve(jsonResponse([running, someoneElses]));
      if (url === '/api/jobs/9') return Promise.resolve(jsonResponse(running));
      return base!(input, init);
    });
    renderAt('/dashboard');
    expect(await screen.findByText('Upload list')).toBeInTheDocument();
    expect(screen.queryByText('Other upload')).not.toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/jobs/9')).toBe(true));
  });

  it('does not look for jobs to resume when pollJobs is not set', async () => {
    signIn();
    renderAt('/dashboard');
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/dashboard')).toBe(true));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/jobs')).toBe(false);
  });

  it('the System page is only for those allowed to change settings (issue 17, bug 5)', async () => {
    signIn();
    renderAt('/system');
    expect(await screen.findByText('You do not have permission to view this page')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'System' })).not.toBeInTheDocument();
  });

  it('the form viewer needs no sign-in and has no app shell', async () => {
    fetchMock.mockImplementation((input) => {
      const url = String(input);
      if (url === '/api/crm-form/4/viewer') {
        return Promise.resolve(jsonResponse({ id: 4, name: 'Join', bodyHtml: '<form><p>Join us</p></form>' }));
      }
      return Promise.resolve(new Response(null, { status: 204 }));
    });
    const router = renderAt('/form-viewer;id=4;client=acme');
    expect(await screen.findByText('Join us')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/form-viewer;id=4;client=acme');
    expect(screen.queryByText('Acme for Congress')).not.toBeInTheDocument();
    const viewer = fetchMock.mock.calls.find(([url]) => url === '/api/crm-form/4/viewer')!;
    expect(new Headers(viewer[1]?.headers).get('client-short')).toBe('acme');
  });

  it('the forms pages are built', async () => {
    signIn();
    renderAt('/crm-forms');
    expect(await screen.findByRole('button', { name: 'Send Form' })).toBeInTheDocument();
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent, ManagedUser, Me, Role } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { ManageUsersPage } from './manage-users-page';

const CREATED = '2026-05-01T10:00:00Z';

const ME: Me = {
  id: 1,
  kind: 'client',
  email: 'me@example.org',
  firstName: 'Mia',
  lastName: 'Self',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions: ['view user', 'edit role'],
  universalPermissions: [],
  canSwitchClient: false,
};

const base = { emailVerified: true, enabled: true, administrator: false, roleIds: [] as number[], created: CREATED };
const USERS: ManagedUser[] = [
  { ...base, kind: 'client', id: 1, email: 'me@example.org', firstName: 'Mia', lastName: 'Self', roleIds: [5] },
  { ...base, kind: 'client', id: 2, email: 'bo@example.org', firstName: 'Bo', lastName: 'Client' },
  { ...base, kind: 'client', id: 3, email: 'new@example.org', firstName: 'Nia', lastName: 'New', emailVerified: false, enabled: false },
  { ...base, kind: 'client', id: 4, email: 'off@example.org', firstName: 'Oz', lastName: 'Off', enabled: false },
  { ...base, kind: 'universal', id: 1, email: 'admin@agency.test', firstName: 'Ann', lastName: 'Admin', administrator: true },
  { ...base, kind: 'universal', id: 9, email: 'uma@agency.test', firstName: 'Uma', lastName: 'Uni' },
];
const ROLES: Role[] = [
  { id: 5, name: 'Editors', permissions: ['pageSegments'], userCount: 1, created: CREATED },
  { id: 6, name: 'Contacts only', permissions: ['pageContacts'], userCount: 0, created: CREATED },
];
const EVENTS: AuditEvent[] = [
  {
    id: 1,
    at: '2026-05-02T09:30:00Z',
    actorKind: 'client',
    actorEmail: 'me@example.org',
    action: 'roles assigned',
    detail: '{"kind":"client","userId":2,"roleIds":[5,6]}',
    address: '203.0.113.9',
  },
];

function serve(me: Me = ME) {
  let users = USERS.map((u) => ({ ...u }));
  server.use(
    http.all('/auth-api/session/me', () => HttpResponse.json(me)),
    http.all('/api/roles', () => HttpResponse.json(ROLES)),
    http.all('/api/audit-events', () => HttpResponse.json(EVENTS)),
    http.patch<{ kind: string; id: string }>('/api/users/:kind/:id', async ({ request, params }) => {
      if (params.kind !== 'client' && params.kind !== 'universal') return undefined;
      const body = (await request.json()) as Partial<ManagedUser>;
      users = users.map((u) => (u.kind === params.kind && u.id === Number(params.id) ? { ...u, ...body } : u));
      return HttpResponse.json(users);
    }),
    http.all('/api/users', () => HttpResponse.json(users)),
    http.all('*', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  );
}

const rowOf = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;
const patches = async () => {
  await settled();
  return sent()
    .filter((r) => r.method === 'PATCH')
    .map(({ url, body }) => ({ url, body }));
};

afterEach(() => act(() => clearSnacks()));

describe('ManageUsersPage', () => {
  it('lists users with kind, status and roles; administrators show "Administrator"', async () => {
    serve();
    renderWithProviders(<ManageUsersPage />);
    await screen.findByRole('table', { name: 'Users' });
    await waitFor(() => expect(rowOf('me@example.org')).toHaveTextContent('Editors'));
    expect(rowOf('bo@example.org')).toHaveTextContent('Bo Client');
    expect(rowOf('bo@example.org')).toHaveTextContent('Client');
    expect(rowOf('bo@example.org')).toHaveTextContent('Enabled');
    expect(rowOf('new@example.org')).toHaveTextContent('Awaiting verification');
    expect(rowOf('off@example.org')).toHaveTextContent('Disabled');
    expect(rowOf('admin@agency.test')).toHaveTextContent('Universal');
    expect(rowOf('admin@agency.test')).toHaveTextContent('Administrator');
    expect(rowOf('uma@agency.test')).toHaveTextContent('None');
  });

  it('enables and disables client users only, and never your own account', async () => {
    serve();
    renderWithProviders(<ManageUsersPage />);
    await screen.findByRole('table', { name: 'Users' });
    expect(within(rowOf('me@example.org')).getByRole('switch')).toBeDisabled();
    expect(within(rowOf('uma@agency.test')).queryByRole('switch')).not.toBeInTheDocument();
    expect(within(rowOf('admin@agency.test')).queryByRole('switch')).not.toBeInTheDocument();

    await userEvent.click(within(rowOf('bo@example.org')).getByRole('switch', { name: 'Enabled: bo@example.org' }));
    expect(await screen.findByText('User disabled')).toBeInTheDocument();
    expect(await patches()).toEqual([{ url: '/api/users/client/2', body: { enabled: false } }]);
    await waitFor(() => expect(rowOf('bo@example.org')).toHaveTextContent('Disabled'));

    await userEvent.click(within(rowOf('off@example.org')).getByRole('switch'));
    expect(await screen.findByText('User enabled')).toBeInTheDocument();
    expect((await patches())[1]).toEqual({ url: '/api/users/client/4', body: { enabled: true } });
  });

  it('assigns roles with the roles multi-select: "Roles saved"', async () => {
    serve();
    renderWithProviders(<ManageUsersPage />);
    await screen.findByRole('table', { name: 'Users' });
    expect(within(rowOf('admin@agency.test')).queryByRole('button', { name: /Edit roles/ })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit roles of uma@agency.test' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Roles' }), 'cont');
    await userEvent.click(await within(dialog).findByRole('option', { name: 'Contacts only' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Roles saved')).toBeInTheDocument();
    expect(await patches()).toEqual([{ url: '/api/users/universal/9', body: { roleIds: [6] } }]);
    await waitFor(() => expect(rowOf('uma@agency.test')).toHaveTextContent('Contacts only'));
  });

  it('offers no role editing without "edit role"', async () => {
    serve({ ...ME, permissions: ['view user'] });
    renderWithProviders(<ManageUsersPage />);
    await screen.findByRole('table', { name: 'Users' });
    await waitFor(() => expect(rowOf('me@example.org')).toHaveTextContent('Editors'));
    expect(screen.queryByRole('button', { name: /Edit roles/ })).not.toBeInTheDocument();
  });

  it('shows recent activity with readable details', async () => {
    serve();
    renderWithProviders(<ManageUsersPage />);
    const table = await screen.findByRole('table', { name: 'Recent activity' });
    const row = within(table).getByText('roles assigned').closest('tr')!;
    expect(row).toHaveTextContent('me@example.org');
    expect(row).toHaveTextContent('kind: client; userId: 2; roleIds: 5, 6');
    expect(row).toHaveTextContent('203.0.113.9');
    expect(sent().some((r) => r.url === '/api/audit-events?limit=50')).toBe(true);
  });
});

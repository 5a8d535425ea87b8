import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Me, UniversalUser } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { UniversalUsersPage } from './universal-users-page';

const CREATED = '2026-05-01T10:00:00Z';

const ME: Me = {
  id: 1,
  kind: 'universal',
  email: 'admin@agency.test',
  firstName: 'Ann',
  lastName: 'Admin',
  phone: '',
  twoFactorMethod: 'email',
  authenticatorEnrolled: false,
  permissions: [],
  universalPermissions: ['view user'],
  canSwitchClient: true,
};
const CLIENTS = [
  { id: 3, label: 'E2E Campaign', short: 'e2e', enabled: true },
  { id: 4, label: 'Other Committee', short: 'other', enabled: true },
];
const base = { enabled: true, allClients: false, universalPermissions: [] as string[], clientIds: [] as number[], twoFactorMethod: 'email', created: CREATED };
const USERS: UniversalUser[] = [
  { ...base, id: 1, email: 'admin@agency.test', firstName: 'Ann', lastName: 'Admin', allClients: true, universalPermissions: ['view user'] },
  { ...base, id: 2, email: 'uma@agency.test', firstName: 'Uma', lastName: 'Uni', clientIds: [4], enabled: false },
];

function serve() {
  let users = USERS.map((u) => ({ ...u }));
  server.use(
    http.all('/auth-api/session/me', () => HttpResponse.json(ME)),
    http.all('/auth-api/session/universal-users/clients', () => HttpResponse.json(CLIENTS)),
    http.post('/auth-api/session/universal-users', async ({ request }) => {
      const body = (await request.json()) as Omit<UniversalUser, 'id' | 'enabled' | 'twoFactorMethod' | 'created'>;
      if (users.some((u) => u.email === body.email)) return HttpResponse.json({ message: 'Email already exists' }, { status: 409 });
      const user: UniversalUser = { ...base, ...body, id: 10 };
      users = [...users, user];
      return HttpResponse.json(user);
    }),
    http.patch<{ id: string }>('/auth-api/session/universal-users/:id', async ({ request, params }) => {
      if (!/^\d+$/.test(params.id)) return undefined;
      const body = (await request.json()) as Partial<UniversalUser>;
      users = users.map((u) => (u.id === Number(params.id) ? { ...u, ...body } : u));
      return HttpResponse.json(users.find((u) => u.id === Number(params.id)));
    }),
    http.all('/auth-api/session/universal-users', () => HttpResponse.json(users)),
    http.all('*', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
  );
}

const rowOf = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;
/** The writes sent with this method, oldest first. */
const writes = async (method: string) => {
  await settled();
  return sent()
    .filter((r) => r.method === method)
    .map(({ url, body }) => ({ url, body }));
};

afterEach(() => act(() => clearSnacks()));

describe('UniversalUsersPage', () => {
  it('lists users with enabled, all clients, client names and permissions', async () => {
    serve();
    renderWithProviders(<UniversalUsersPage />);
    await screen.findByRole('table', { name: 'Universal users' });
    await waitFor(() => expect(rowOf('uma@agency.test')).toHaveTextContent('Other Committee'));
    const cells = (email: string) => within(rowOf(email)).getAllByRole('cell').map((c) => c.textContent);
    expect(cells('admin@agency.test').slice(0, 6)).toEqual(['admin@agency.test', 'Ann Admin', 'Yes', 'Yes', 'All', 'view user']);
    expect(cells('uma@agency.test').slice(0, 6)).toEqual(['uma@agency.test', 'Uma Uni', 'No', 'No', 'Other Committee', 'None']);
  });

  it('creates a user with chosen clients and "view user": the invitation is sent', async () => {
    serve();
    renderWithProviders(<UniversalUsersPage />);
    await screen.findByRole('table', { name: 'Universal users' });
    await userEvent.click(screen.getByRole('button', { name: 'Create Universal User' }));
    const dialog = await screen.findByRole('dialog');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'Ben@Agency.test ');
    await userEvent.type(within(dialog).getByLabelText('First name'), 'Ben');
    await userEvent.type(within(dialog).getByLabelText('Last name'), 'Bright');
    await userEvent.type(within(dialog).getByRole('combobox', { name: 'Clients' }), 'e2e');
    await userEvent.click(await within(dialog).findByRole('option', { name: 'E2E Campaign' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /view user/ }));
    await userEvent.click(create);
    expect(await screen.findByText('Invitation sent to ben@agency.test')).toBeInTheDocument();
    expect(await writes('POST')).toEqual([
      {
        url: '/auth-api/session/universal-users',
        body: {
          email: 'ben@agency.test',
          firstName: 'Ben',
          lastName: 'Bright',
          allClients: false,
          clientIds: [3],
          universalPermissions: ['view user'],
        },
      },
    ]);
    await waitFor(() => expect(rowOf('ben@agency.test')).toHaveTextContent('E2E Campaign'));
  });

  it('rejects a bad e-mail and shows "Email already exists" from the server', async () => {
    serve();
    renderWithProviders(<UniversalUsersPage />);
    await screen.findByRole('table', { name: 'Universal users' });
    await userEvent.click(screen.getByRole('button', { name: 'Create Universal User' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await userEvent.type(within(dialog).getByLabelText('First name'), 'Uma');
    await userEvent.type(within(dialog).getByLabelText('Last name'), 'Uni');
    expect(within(dialog).getByText('Not a valid email')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    await userEvent.clear(within(dialog).getByLabelText('Email'));
    await userEvent.type(within(dialog).getByLabelText('Email'), 'uma@agency.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Email already exists');
  });

  it('edits a user: enable, all clients and permissions', async () => {
    serve();
    renderWithProviders(<UniversalUsersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit uma@agency.test' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Email')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Other Committee')).toBeInTheDocument();
    const enabled = within(dialog).getByRole('switch', { name: 'Enabled' });
    expect(enabled).not.toBeChecked();
    await userEvent.click(enabled);
    await userEvent.click(within(dialog).getByRole('switch', { name: /All clients/ }));
    expect(within(dialog).queryByRole('combobox', { name: 'Clients' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User saved')).toBeInTheDocument();
    expect(await writes('PATCH')).toEqual([
      {
        url: '/auth-api/session/universal-users/2',
        body: { firstName: 'Uma', lastName: 'Uni', enabled: true, allClients: true, clientIds: [4], universalPermissions: [] },
      },
    ]);
    await waitFor(() => expect(rowOf('uma@agency.test')).toHaveTextContent('All'));
  });

  it('you cannot disable yourself or drop your own "view user"', async () => {
    serve();
    renderWithProviders(<UniversalUsersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit admin@agency.test' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('switch', { name: 'Enabled' })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: /view user/ })).toBeDisabled();
  });
});

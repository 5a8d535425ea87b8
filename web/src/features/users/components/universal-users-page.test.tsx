import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me, UniversalUser } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { UniversalUsersPage } from './universal-users-page';

const fetchMock = vi.fn<typeof fetch>();
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
  fetchMock.mockImplementation((input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/auth-api/session/me') return Promise.resolve(jsonResponse(ME));
    if (url === '/auth-api/session/universal-users/clients') return Promise.resolve(jsonResponse(CLIENTS));
    if (url === '/auth-api/session/universal-users' && method === 'POST') {
      const body = JSON.parse(String(init!.body)) as Omit<UniversalUser, 'id' | 'enabled' | 'twoFactorMethod' | 'created'>;
      if (users.some((u) => u.email === body.email)) return Promise.resolve(jsonResponse({ message: 'Email already exists' }, 409));
      const user: UniversalUser = { ...base, ...body, id: 10 };
      users = [...users, user];
      return Promise.resolve(jsonResponse(user));
    }
    const match = /^\/auth-api\/session\/universal-users\/(\d+)$/.exec(url);
    if (match && method === 'PATCH') {
      const body = JSON.parse(String(init!.body)) as Partial<UniversalUser>;
      users = users.map((u) => (u.id === Number(match[1]) ? { ...u, ...body } : u));
      return Promise.resolve(jsonResponse(users.find((u) => u.id === Number(match[1]))));
    }
    if (url === '/auth-api/session/universal-users') return Promise.resolve(jsonResponse(users));
    return Promise.resolve(jsonResponse({ message: 'Not found' }, 404));
  });
}

const rowOf = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;
const sent = (method: string) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === method)
    .map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init!.body)) as unknown }));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
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
    expect(sent('POST')).toEqual([
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
    expect(sent('PATCH')).toEqual([
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

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { RolesPage } from './roles-page';

const PERMISSION_NAMES = ['pageContributions', 'pageSegments', 'pageContacts', 'pageMedia', 'view user', 'edit role'].map(
  (id) => ({ id, label: id }),
);
const EDITORS: Role = { id: 1, name: 'Editors', permissions: ['pageSegments', 'view user'], userCount: 2, created: '2026-05-01T10:00:00Z' };

function serve(initial: Role[]) {
  let roles = [...initial];
  server.use(
    http.all('/api/roles/permission-names', () => HttpResponse.json(PERMISSION_NAMES)),
    http.post('/api/roles', async ({ request }) => {
      const body = (await request.json()) as { name: string; permissions: string[] };
      if (roles.some((r) => r.name === body.name)) {
        return HttpResponse.json({ message: 'A role with this name already exists' }, { status: 409 });
      }
      const role: Role = { id: roles.length + 10, userCount: 0, created: EDITORS.created, ...body };
      roles = [...roles, role];
      return HttpResponse.json(role);
    }),
    http.patch<{ id: string }>('/api/roles/:id', async ({ request, params }) => {
      if (!/^\d+$/.test(params.id)) return undefined;
      const body = (await request.json()) as { name: string; permissions: string[] };
      roles = roles.map((r) => (r.id === Number(params.id) ? { ...r, ...body } : r));
      return HttpResponse.json(roles.find((r) => r.id === Number(params.id)));
    }),
    http.delete<{ id: string }>('/api/roles/:id', ({ params }) => {
      if (!/^\d+$/.test(params.id)) return undefined;
      roles = roles.filter((r) => r.id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
    http.all('/api/roles', () => HttpResponse.json(roles)),
    http.all('*', () => HttpResponse.json([])),
  );
}

/** The first request sent with this method: its address and body. */
const first = async (method: string) => {
  await settled();
  const { url, body } = sentOnce(method);
  return { url, body };
};
afterEach(() => act(() => clearSnacks()));

describe('RolesPage', () => {
  it('lists roles with their permissions and user counts', async () => {
    serve([EDITORS]);
    renderWithProviders(<RolesPage />);
    const table = await screen.findByRole('table', { name: 'Roles' });
    const row = within(table).getByText('Editors').closest('tr')!;
    expect(row).toHaveTextContent('pageSegments, view user');
    expect(row).toHaveTextContent('2');
  });

  it('creates a role from a name and permission checkboxes: "Role created"', async () => {
    serve([EDITORS]);
    renderWithProviders(<RolesPage />);
    await screen.findByRole('table', { name: 'Roles' });
    await userEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(PERMISSION_NAMES.length);
    await userEvent.type(within(dialog).getByLabelText('Name'), '  Contacts only ');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'pageMedia' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'pageContacts' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'pageMedia' }));
    await userEvent.click(save);
    expect(await screen.findByText('Role created')).toBeInTheDocument();
    expect(await first('POST')).toEqual({ url: '/api/roles', body: { name: 'Contacts only', permissions: ['pageContacts'] } });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = (await screen.findByText('Contacts only')).closest('tr')!;
    expect(row).toHaveTextContent('pageContacts');
  });

  it('keeps the dialog open with the server message on a duplicate name', async () => {
    serve([EDITORS]);
    renderWithProviders(<RolesPage />);
    await screen.findByRole('table', { name: 'Roles' });
    await userEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Editors');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A role with this name already exists');
    expect(screen.queryByText('Role created')).not.toBeInTheDocument();
  });

  it('edits a role, starting from its current permissions', async () => {
    serve([EDITORS]);
    renderWithProviders(<RolesPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Editors' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Editors');
    expect(within(dialog).getByRole('checkbox', { name: 'pageSegments' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'view user' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'edit role' })).not.toBeChecked();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'edit role' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'pageSegments' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Role saved')).toBeInTheDocument();
    expect(await first('PATCH')).toEqual({ url: '/api/roles/1', body: { name: 'Editors', permissions: ['view user', 'edit role'] } });
  });

  it('deletes a role only after "Yes, delete"', async () => {
    serve([EDITORS]);
    renderWithProviders(<RolesPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Editors' }));
    expect(await screen.findByText('Confirm delete')).toBeInTheDocument();
    expect(screen.getByText('Delete this item?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'No, keep' }));
    expect(sent().some((r) => r.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Editors' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText('Role deleted')).toBeInTheDocument();
    expect((await first('DELETE')).url).toBe('/api/roles/1');
    expect(await screen.findByText('No roles yet.')).toBeInTheDocument();
  });
});

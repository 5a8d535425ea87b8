import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListUniversalUsersQueryKey,
  getListUsersQueryKey,
  useCreateUniversalUser,
  useGetMe,
  useListGrantableClients,
  useListUniversalUsers,
  useUpdateUniversalUser,
} from '@/api/gen';
import type { UniversalUser } from '@/api/gen/model';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';
import { fullName, namesFor } from '../utils';
import { UniversalUserDialog, type UniversalUserValues } from './universal-user-dialog';

type Editing = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; user: UniversalUser };

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** Manage Universal Users: the agency's universal users, their client access and permissions. */
export function UniversalUsersPage() {
  const queryClient = useQueryClient();
  const me = useGetMe();
  const users = useListUniversalUsers({ query: { meta: { errorMessage: 'Could not load universal users' } } });
  const clients = useListGrantableClients({ query: { meta: { errorMessage: 'Could not load clients' } } });
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getListUniversalUsersQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getListUsersQueryKey() }),
    ]);
  const create = useCreateUniversalUser({
    mutation: {
      meta: { silent: true },
      onSuccess: async (user) => {
        setEditing({ mode: 'closed' });
        notifySuccess(`Invitation sent to ${user.email}`);
        await refresh();
      },
    },
  });
  const update = useUpdateUniversalUser({
    mutation: {
      meta: { silent: true },
      onSuccess: async () => {
        setEditing({ mode: 'closed' });
        notifySuccess('User saved');
        await refresh();
      },
    },
  });
  const saving = editing.mode === 'edit' ? update : create;

  const open = (next: Editing) => {
    create.reset();
    update.reset();
    setEditing(next);
  };
  const save = (values: UniversalUserValues) => {
    const { email, enabled, ...common } = values;
    if (editing.mode === 'edit') update.mutate({ id: editing.user.id, data: { ...common, enabled } });
    else create.mutate({ data: { email, ...common } });
  };

  return (
    <>
      <div className="d-flex justify-content-between align-items-center mb-3">
        <h1 className="h3 mb-0">Manage Universal Users</h1>
        <Button onClick={() => open({ mode: 'create' })} disabled={!clients.data}>
          Create Universal User
        </Button>
      </div>
      {users.isPending ? (
        <PageSpinner label="Loading universal users" />
      ) : users.isError ? (
        <Alert variant="danger">Could not load universal users.</Alert>
      ) : users.data.length === 0 ? (
        <EmptyState>No universal users yet.</EmptyState>
      ) : (
        <Table striped hover responsive aria-label="Universal users">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Enabled</th>
              <th scope="col">All clients</th>
              <th scope="col">Clients</th>
              <th scope="col">Permissions</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => (
              <tr key={user.id}>
                <td>{user.email}</td>
                <td>{fullName(user)}</td>
                <td>{yesNo(user.enabled)}</td>
                <td>{yesNo(user.allClients)}</td>
                <td>
                  {user.allClients
                    ? 'All'
                    : user.clientIds.length === 0
                      ? 'None'
                      : namesFor(user.clientIds, clients.data).join(', ')}
                </td>
                <td>{user.universalPermissions.length === 0 ? 'None' : user.universalPermissions.join(', ')}</td>
                <td className="text-end">
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    aria-label={`Edit ${user.email}`}
                    onClick={() => open({ mode: 'edit', user })}
                    disabled={!clients.data}
                  >
                    Edit
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {editing.mode !== 'closed' && clients.data && (
        <UniversalUserDialog
          user={editing.mode === 'edit' ? editing.user : null}
          self={editing.mode === 'edit' && me.data?.kind === 'universal' && me.data.id === editing.user.id}
          clients={clients.data}
          busy={saving.isPending}
          error={saving.error?.message}
          onSave={save}
          onCancel={() => setEditing({ mode: 'closed' })}
        />
      )}
    </>
  );
}

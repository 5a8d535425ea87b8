import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
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
import { columnsFor, DataTable } from '@/components/data-table';

type Editing = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; user: UniversalUser };

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

const col = columnsFor<UniversalUser>();

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

  const columns = col.columns([
    col.accessor('email', { header: 'Email' }),
    col.display({ id: 'name', header: 'Name', cell: ({ row }) => fullName(row.original) }),
    col.accessor('enabled', { header: 'Enabled', cell: (info) => yesNo(info.getValue()) }),
    col.accessor('allClients', { header: 'All clients', cell: (info) => yesNo(info.getValue()) }),
    col.display({
      id: 'clients',
      header: 'Clients',
      cell: ({ row: { original: user } }) =>
        user.allClients
          ? 'All'
          : user.clientIds.length === 0
            ? 'None'
            : namesFor(user.clientIds, clients.data).join(', '),
    }),
    col.accessor('universalPermissions', {
      header: 'Permissions',
      cell: (info) => (info.getValue().length === 0 ? 'None' : info.getValue().join(', ')),
    }),
    col.display({
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      cell: ({ row: { original: user } }) => (
        <Button
          size="sm"
          variant="outline-secondary"
          aria-label={`Edit ${user.email}`}
          onClick={() => open({ mode: 'edit', user })}
          disabled={!clients.data}
        >
          Edit
        </Button>
      ),
    }),
  ]);

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
        <DataTable
          label="Universal users"
          columns={columns}
          data={users.data}
          cellClassName={{ actions: 'text-end' }}
          hover
          small={false}
        />
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

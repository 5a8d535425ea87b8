import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListAuditEventsQueryKey,
  getListRolesQueryKey,
  getListUsersQueryKey,
  useCreateRole,
  useDeleteRole,
  useListPermissionNames,
  useListRoles,
  useUpdateRole,
} from '@/api/gen';
import type { Role, RoleInput } from '@/api/gen/model';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';
import { RoleDialog } from './role-dialog';
import { forgetDeleted } from '@/lib/forget-deleted';
import { columnsFor, DataTable } from '@/components/data-table';

/** Which dialog is open: none, create, or edit a role. */
type Editing = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; role: Role };

const col = columnsFor<Role>();

/** Manage Roles: the client's roles with their permissions and users; create, edit and delete. */
export function RolesPage() {
  const queryClient = useQueryClient();
  const roles = useListRoles({ query: { meta: { errorMessage: 'Could not load roles' } } });
  const permissionNames = useListPermissionNames({ query: { meta: { errorMessage: 'Could not load permission names' } } });
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<Role | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getListRolesQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getListUsersQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getListAuditEventsQueryKey() }),
    ]);

  const create = useCreateRole({
    mutation: {
      meta: { silent: true },
      onSuccess: async () => {
        setEditing({ mode: 'closed' });
        notifySuccess('Role created');
        await refresh();
      },
    },
  });
  const update = useUpdateRole({
    mutation: {
      meta: { silent: true },
      onSuccess: async () => {
        setEditing({ mode: 'closed' });
        notifySuccess('Role saved');
        await refresh();
      },
    },
  });
  const remove = useDeleteRole({
    mutation: {
      meta: { errorMessage: 'Could not delete the role' },
      onSuccess: async () => {
        setDeleting(null);
        notifySuccess('Role deleted');
        await forgetDeleted(queryClient, {
          lists: [getListRolesQueryKey(), getListUsersQueryKey(), getListAuditEventsQueryKey()],
        });
      },
      onError: () => setDeleting(null),
    },
  });

  const labels = new Map((permissionNames.data ?? []).map((p) => [p.id, p.label]));
  const columns = col.columns([
    col.accessor('name', { header: 'Name' }),
    col.accessor('permissions', {
      header: 'Permissions',
      cell: (info) => {
        const permissions = info.getValue();
        return permissions.length === 0 ? 'None' : permissions.map((p) => labels.get(p) ?? p).join(', ');
      },
    }),
    col.accessor('userCount', { header: 'Users', cell: (info) => info.getValue().toLocaleString() }),
    col.display({
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      cell: ({ row: { original: role } }) => (
        <>
          <Button
            size="sm"
            variant="outline-secondary"
            className="me-2"
            aria-label={`Edit ${role.name}`}
            onClick={() => open({ mode: 'edit', role })}
            disabled={!permissionNames.data}
          >
            Edit
          </Button>
          <Button
            size="sm"
            variant="outline-danger"
            aria-label={`Delete ${role.name}`}
            onClick={() => setDeleting(role)}
            disabled={remove.isPending}
          >
            Delete
          </Button>
        </>
      ),
    }),
  ]);
  const save = (input: RoleInput) => {
    if (editing.mode === 'edit') update.mutate({ id: editing.role.id, data: input });
    else create.mutate({ data: input });
  };
  const open = (next: Editing) => {
    create.reset();
    update.reset();
    setEditing(next);
  };
  const saving = editing.mode === 'edit' ? update : create;

  return (
    <>
      <div className="d-flex justify-content-between align-items-center mb-3">
        <h1 className="h3 mb-0">Manage Roles</h1>
        <Button onClick={() => open({ mode: 'create' })} disabled={!permissionNames.data}>
          Create Role
        </Button>
      </div>
      {roles.isPending ? (
        <PageSpinner label="Loading roles" />
      ) : roles.isError ? (
        <Alert variant="danger">Could not load roles.</Alert>
      ) : roles.data.length === 0 ? (
        <EmptyState>No roles yet.</EmptyState>
      ) : (
        <DataTable
          label="Roles"
          columns={columns}
          data={roles.data}
          numeric={['userCount']}
          cellClassName={{ actions: 'text-end text-nowrap' }}
          hover
          small={false}
        />
      )}
      {editing.mode !== 'closed' && permissionNames.data && (
        <RoleDialog
          role={editing.mode === 'edit' ? editing.role : null}
          permissionNames={permissionNames.data}
          busy={saving.isPending}
          error={saving.error?.message}
          onSave={save}
          onCancel={() => setEditing({ mode: 'closed' })}
        />
      )}
      <ConfirmDeleteDialog
        show={deleting !== null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting !== null && remove.mutate({ id: deleting.id })}
      />
    </>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListAuditEventsQueryKey,
  getListRolesQueryKey,
  getListUsersQueryKey,
  useGetMe,
  useListRoles,
  useListUsers,
  useUpdateUser,
} from '@/api/gen';
import type { ManagedUser, Role } from '@/api/gen/model';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';
import { EDIT_ROLE, hasPermission } from '@/lib/permissions';
import { USER_KIND_LABELS, fullName, userStatus, type UserStatus } from '../utils';
import { AuditEventsTable } from './audit-events-table';
import { UserRolesDialog } from './user-roles-dialog';
import { columnsFor, DataTable } from '@/components/data-table';

const STATUS_VARIANT: Record<UserStatus, string> = {
  'Awaiting verification': 'warning',
  Disabled: 'secondary',
  Enabled: 'success',
};

const rowKey = (user: Pick<ManagedUser, 'kind' | 'id'>) => `${user.kind}-${user.id}`;

function roleText(user: ManagedUser, roles: Role[] | undefined): string {
  if (user.administrator) return 'Administrator';
  if (user.roleIds.length === 0) return 'None';
  const names = new Map((roles ?? []).map((r) => [r.id, r.name]));
  return user.roleIds.map((id) => names.get(id) ?? `#${id}`).join(', ');
}

const col = columnsFor<ManagedUser>();

/** Manage Users: the client's users and the universal users who may use it, their status and roles, and recent activity. */
export function ManageUsersPage() {
  const queryClient = useQueryClient();
  const me = useGetMe();
  const users = useListUsers({ query: { meta: { errorMessage: 'Could not load users' } } });
  const roles = useListRoles({ query: { meta: { errorMessage: 'Could not load roles' } } });
  const [editingRoles, setEditingRoles] = useState<ManagedUser | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);
  const canEditRoles = hasPermission(me.data, EDIT_ROLE, 'client');

  const afterUpdate = async (list: ManagedUser[]) => {
    queryClient.setQueryData(getListUsersQueryKey(), list);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: getListRolesQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getListAuditEventsQueryKey() }),
    ]);
  };

  const toggle = useUpdateUser({
    mutation: {
      onSuccess: async (list, { data }) => {
        notifySuccess(data.enabled ? 'User enabled' : 'User disabled');
        await afterUpdate(list);
      },
      onSettled: () => setToggling(null),
    },
  });
  const saveRoles = useUpdateUser({
    mutation: {
      meta: { silent: true },
      onSuccess: async (list) => {
        setEditingRoles(null);
        notifySuccess('Roles saved');
        await afterUpdate(list);
      },
    },
  });

  const isMe = (user: ManagedUser) => me.data?.kind === user.kind && me.data.id === user.id;

  const columns = col.columns([
    col.display({ id: 'name', header: 'Name', cell: ({ row }) => fullName(row.original) }),
    col.accessor('email', { header: 'Email' }),
    col.accessor('kind', { header: 'Kind', cell: (info) => USER_KIND_LABELS[info.getValue()] ?? info.getValue() }),
    col.display({
      id: 'status',
      header: 'Status',
      cell: ({ row }) => {
        const status = userStatus(row.original);
        return (
          <Badge bg={STATUS_VARIANT[status]} text={status === 'Awaiting verification' ? 'dark' : undefined}>
            {status}
          </Badge>
        );
      },
    }),
    col.display({ id: 'roles', header: 'Roles', cell: ({ row }) => roleText(row.original, roles.data) }),
    col.display({
      id: 'enabled',
      header: 'Enabled',
      cell: ({ row: { original: user } }) => {
        const key = rowKey(user);
        return user.kind === 'client' ? (
          <Form.Check
            type="switch"
            role="switch"
            id={`enabled-${key}`}
            aria-label={`Enabled: ${user.email}`}
            checked={user.enabled}
            disabled={toggling !== null || isMe(user)}
            title={isMe(user) ? 'You cannot disable your own account' : undefined}
            onChange={(e) => {
              setToggling(key);
              toggle.mutate({ kind: user.kind, id: user.id, data: { enabled: e.target.checked } });
            }}
          />
        ) : (
          <span className="small text-body-secondary">In Manage Universal Users</span>
        );
      },
    }),
    col.display({
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      cell: ({ row: { original: user } }) =>
        canEditRoles &&
        !user.administrator && (
          <Button
            size="sm"
            variant="outline-secondary"
            aria-label={`Edit roles of ${user.email}`}
            onClick={() => {
              saveRoles.reset();
              setEditingRoles(user);
            }}
            disabled={!roles.data}
          >
            Edit roles
          </Button>
        ),
    }),
  ]);

  return (
    <>
      <h1 className="h3 mb-3">Manage Users</h1>
      {users.isPending ? (
        <PageSpinner label="Loading users" />
      ) : users.isError ? (
        <Alert variant="danger">Could not load users.</Alert>
      ) : users.data.length === 0 ? (
        <EmptyState>No users yet.</EmptyState>
      ) : (
        <DataTable
          label="Users"
          columns={columns}
          data={users.data}
          cellClassName={{ actions: 'text-end' }}
          hover
          small={false}
        />
      )}
      <h2 className="h5 mt-4 mb-3">Recent activity</h2>
      <AuditEventsTable />
      {editingRoles && roles.data && (
        <UserRolesDialog
          user={editingRoles}
          roles={roles.data}
          busy={saveRoles.isPending}
          error={saveRoles.error?.message}
          onSave={(roleIds) => saveRoles.mutate({ kind: editingRoles.kind, id: editingRoles.id, data: { roleIds } })}
          onCancel={() => setEditingRoles(null)}
        />
      )}
    </>
  );
}

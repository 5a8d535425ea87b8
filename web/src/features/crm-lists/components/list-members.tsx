import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import {
  getGetCrmListQueryKey,
  getListCrmListsQueryKey,
  getListCrmListMembersQueryKey,
  useListCrmListMembers,
  useRemoveCrmListMember,
} from '@/api/gen';
import type { CrmList, ListMember } from '@/api/gen/model';
import { notifyCrmSuccess } from '@/lib/notifications';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatCount } from '@/lib/format';
import { forgetDeleted } from '@/lib/forget-deleted';
import { columnsFor, DataTable } from '@/components/data-table';

const STATUS_VARIANT: Record<string, string> = { subscribed: 'success', unsubscribed: 'secondary', bounced: 'danger' };

const name = (m: ListMember) => `${m.firstName} ${m.lastName}`.trim();

const col = columnsFor<ListMember>();
const columns = col.columns([
  col.accessor('email', { header: 'Email' }),
  col.display({ id: 'name', header: 'Name', cell: ({ row }) => name(row.original) }),
  col.accessor('subscription', {
    header: 'Subscription',
    cell: (info) => <Badge bg={STATUS_VARIANT[info.getValue()] ?? 'secondary'}>{info.getValue()}</Badge>,
  }),
]);

/** The list's members: searched by e-mail or name, 25 a page, each with its subscription; upload lists can lose one. */
export function ListMembers({ list }: { list: CrmList }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), 300);
  const params = { ...(q ? { q } : {}), page };
  const members = useListCrmListMembers(list.id, params, {
    query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load the members' } },
  });
  const remove = useRemoveCrmListMember({
    mutation: {
      meta: { errorMessage: 'Could not remove the member' },
      onSuccess: async () => {
        notifyCrmSuccess('Member removed');
        await forgetDeleted(queryClient, {
          lists: [getListCrmListMembersQueryKey(list.id), getGetCrmListQueryKey(list.id), getListCrmListsQueryKey()],
        });
      },
    },
  });
  const data = members.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const canRemove = list.kind === 'upload';

  const removeColumn = col.display({
    id: 'actions',
    header: () => <span className="visually-hidden">Actions</span>,
    cell: ({ row: { original: m } }) => (
      <Button
        size="sm"
        variant="outline-danger"
        aria-label={`Remove ${m.email}`}
        disabled={remove.isPending}
        onClick={() => remove.mutate({ id: list.id, contactId: m.contactId })}
      >
        Remove
      </Button>
    ),
  });

  return (
    <section aria-labelledby="list-members-title" className="mt-4">
      <h2 id="list-members-title" className="h5">
        Members
      </h2>
      <Form.Group className="mb-2" controlId="list-members-search" style={{ maxWidth: '24rem' }}>
        <Form.Label className="visually-hidden">Search members</Form.Label>
        <Form.Control
          type="search"
          placeholder="Search by email or name"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </Form.Group>
      {members.isError ? (
        <Alert variant="danger">Could not load the members.</Alert>
      ) : (
        <>
          <div className="table-responsive">
            <DataTable
              label="List members"
              columns={canRemove ? [...columns, removeColumn] : columns}
              data={data?.members ?? []}
              empty={data ? (q ? 'No member matches the search.' : 'This list has no members.') : undefined}
              cellClassName={{ actions: 'text-end' }}
              ariaBusy={members.isFetching}
              striped={false}
              hover
            />
          </div>
          {data && (
            <div className="d-flex align-items-center gap-2 flex-wrap">
              <span className="small text-body-secondary" role="status">
                {formatCount(data.total)} {data.total === 1 ? 'member' : 'members'} · page {page} of {pages}
              </span>
              <Button size="sm" variant="outline-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <Button size="sm" variant="outline-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

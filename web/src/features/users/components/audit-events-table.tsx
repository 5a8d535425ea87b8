import Alert from 'react-bootstrap/Alert';
import { useListAuditEvents } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { describeDetail } from '../utils';
import { columnsFor, DataTable } from '@/components/data-table';
import type { AuditEvent } from '@/api/gen/model';

export const AUDIT_EVENT_LIMIT = 50;

const col = columnsFor<AuditEvent>();
const columns = col.columns([
  col.accessor('at', { header: 'When', cell: (info) => formatDateTime(info.getValue()) }),
  col.display({
    id: 'who',
    header: 'Who',
    cell: ({ row: { original: event } }) => (
      <>
        {event.actorEmail}
        {event.actorKind && <span className="text-body-secondary small"> ({event.actorKind})</span>}
      </>
    ),
  }),
  col.accessor('action', { header: 'Action' }),
  col.accessor('detail', { header: 'Details', cell: (info) => describeDetail(info.getValue()) }),
  col.accessor('address', { header: 'Address' }),
]);

/** "Recent activity": the client's latest audit events, newest first. */
export function AuditEventsTable() {
  const events = useListAuditEvents(
    { limit: AUDIT_EVENT_LIMIT },
    { query: { meta: { errorMessage: 'Could not load recent activity' } } },
  );
  if (events.isPending) return <PageSpinner label="Loading recent activity" />;
  if (events.isError) return <Alert variant="danger">Could not load recent activity.</Alert>;
  if (events.data.length === 0) return <EmptyState>No activity yet.</EmptyState>;
  return (
    <DataTable
      label="Recent activity"
      columns={columns}
      data={events.data}
      cellClassName={{ at: 'text-nowrap', detail: 'small text-break', address: 'small' }}
      hover
    />
  );
}

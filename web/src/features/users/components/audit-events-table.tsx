import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { useListAuditEvents } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { describeDetail } from '../utils';

export const AUDIT_EVENT_LIMIT = 50;

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
    <Table striped hover responsive size="sm" aria-label="Recent activity">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">Action</th>
          <th scope="col">Details</th>
          <th scope="col">Address</th>
        </tr>
      </thead>
      <tbody>
        {events.data.map((event) => (
          <tr key={event.id}>
            <td className="text-nowrap">{formatDateTime(event.at)}</td>
            <td>
              {event.actorEmail}
              {event.actorKind && <span className="text-body-secondary small"> ({event.actorKind})</span>}
            </td>
            <td>{event.action}</td>
            <td className="small text-break">{describeDetail(event.detail)}</td>
            <td className="small">{event.address}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

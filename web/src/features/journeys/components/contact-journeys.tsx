import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { useListContactJourneys } from '@/api/gen';
import { columnsFor, DataTable } from '@/components/data-table';
import { formatDateTime } from '@/lib/format';
import type { ContactJourney } from '@/api/gen/model';

const STATES: Record<string, string> = { waiting: 'In the journey', finished: 'Finished', exited: 'Left' };

const col = columnsFor<ContactJourney>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Journey',
    cell: (info) => <Link to={`/journeys/${info.row.original.journey_id}`}>{info.getValue()}</Link>,
  }),
  col.accessor('version', { header: 'Version' }),
  col.accessor('step_id', { header: 'Step' }),
  col.accessor('state', {
    header: 'State',
    cell: ({ row: { original: r } }) =>
      `${STATES[r.state] ?? r.state}${r.exit_reason ? ` (${r.exit_reason})` : ''}`,
  }),
  col.accessor('entered_at', { header: 'Entered', cell: (info) => formatDateTime(info.getValue()) }),
  col.accessor('due_at', { header: 'Next step due', cell: (info) => (info.getValue() ? formatDateTime(info.getValue() as string) : '—') }),
]);

/** The contact page's "Journeys" card: the journeys the contact is or was in, and where. */
export function ContactJourneys({ contactId }: { contactId: number }) {
  const journeys = useListContactJourneys(contactId, { query: { meta: { errorMessage: 'Could not load journeys' } } });
  // A missing contact is said once, by the contact's own section.
  if (journeys.error?.status === 404 || journeys.isPending) return null;
  return (
    <Card className="my-3">
      <Card.Header className="fw-semibold">Journeys</Card.Header>
      <Card.Body>
        {journeys.isError ? (
          <Alert variant="danger">Could not load journeys.</Alert>
        ) : journeys.data.length === 0 ? (
          <p className="text-body-secondary mb-0">Not in any journey.</p>
        ) : (
          <DataTable label="Journeys" columns={columns} data={journeys.data} numeric={['version']} />
        )}
      </Card.Body>
    </Card>
  );
}

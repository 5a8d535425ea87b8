import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router';
import { useListJourneys } from '@/api/gen';
import { columnsFor, DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount } from '@/lib/format';
import type { JourneySummary } from '@/api/gen/model';
import { dollars } from '../describe';
import { statusLabel, statusVariant } from '../status';
import { JourneyActions } from './journey-actions';
import { LimitsCard } from './limits-card';

const col = columnsFor<JourneySummary>();
const count = (key: 'entered' | 'active' | 'finished' | 'converted', header: string) =>
  col.accessor(key, { header, cell: (info) => formatCount(info.getValue()) });
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (info) => <Link to={`/journeys/${info.row.original.id}`}>{info.getValue()}</Link>,
  }),
  col.accessor('status', {
    header: 'Status',
    cell: (info) => <Badge bg={statusVariant(info.getValue())}>{statusLabel(info.getValue())}</Badge>,
  }),
  col.accessor('version', { header: 'Version' }),
  count('entered', 'Entered'),
  count('active', 'Active'),
  count('finished', 'Finished'),
  count('converted', 'Converted'),
  col.accessor('revenue_cents', { header: 'Revenue', cell: (info) => dollars(info.getValue()) }),
  col.display({
    id: 'actions',
    header: 'Actions',
    cell: ({ row: { original: j } }) => <JourneyActions id={j.id} name={j.name} status={j.status} />,
  }),
]);

/** Email › Journeys: every journey with its entered, active, finished, converted and revenue; New journey. */
export function JourneysPage() {
  const journeys = useListJourneys({ query: { meta: { errorMessage: 'Could not load journeys' } } });
  return (
    <>
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Journeys</h1>
        <Link className="btn btn-primary" to="/journeys/new">
          New journey
        </Link>
      </div>
      {journeys.isPending ? (
        <PageSpinner label="Loading journeys" />
      ) : journeys.isError ? (
        <Alert variant="danger">Could not load journeys.</Alert>
      ) : journeys.data.length === 0 ? (
        <EmptyState>No journeys yet.</EmptyState>
      ) : (
        <DataTable
          label="Journeys"
          columns={columns}
          data={journeys.data}
          numeric={['version', 'entered', 'active', 'finished', 'converted', 'revenue_cents']}
          getRowId={(j) => String(j.id)}
          small={false}
        />
      )}
      <LimitsCard />
    </>
  );
}

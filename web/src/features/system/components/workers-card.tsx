import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { useListWorkers } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';
import type { WorkerStatus } from '@/api/gen/model';

/** The worker processes that run jobs: live or not, their last beat and poll, and what each runs. */
const col = columnsFor<WorkerStatus>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Worker',
    cell: ({ row: { original: w } }) => (
      <>
        {w.name}
        {w.host && <div className="small text-body-secondary">{w.host}</div>}
      </>
    ),
  }),
  col.accessor('live', {
    header: 'Status',
    cell: (info) => <Badge bg={info.getValue() ? 'success' : 'secondary'}>{info.getValue() ? 'live' : 'gone'}</Badge>,
  }),
  col.accessor('lastBeat', { header: 'Last beat', cell: (info) => formatDateTime(info.getValue()) }),
  col.accessor('lastPoll', { header: 'Last queue poll', cell: (info) => formatDateTime(info.getValue()) }),
  col.display({
    id: 'running',
    header: 'Running',
    cell: ({ row: { original: w } }) =>
      w.runningJobs === 0
        ? 'idle'
        : `${w.runningJobs} ${w.runningJobs === 1 ? 'job' : 'jobs'}` +
          (w.jobIds.length > 0 ? ` (yours: ${w.jobIds.map((id) => `#${id}`).join(', ')})` : ''),
  }),
]);

export function WorkersCard() {
  const workers = useListWorkers({
    query: { refetchInterval: 5000, meta: { errorMessage: 'Could not load the workers' } },
  });
  const live = workers.data?.filter((w) => w.live).length ?? 0;
  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="h5">
        Workers
      </Card.Header>
      <Card.Body>
        {workers.isPending ? (
          <PageSpinner label="Loading workers" />
        ) : workers.isError ? (
          <Alert variant="danger">Could not load the workers</Alert>
        ) : (
          <>
            {live === 0 ? (
              <Alert variant="warning">No worker is running: jobs wait until one starts.</Alert>
            ) : (
              <p>
                {live} {live === 1 ? 'worker is' : 'workers are'} running. A worker that stops beating for 15 s no
                longer counts.
              </p>
            )}
            {workers.data.length > 0 && (
              <DataTable label="Workers" columns={columns} data={workers.data} striped={false} className="mb-0" />
            )}
          </>
        )}
      </Card.Body>
    </Card>
  );
}

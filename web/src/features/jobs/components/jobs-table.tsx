import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router';
import { useListJobs } from '@/api/gen';
import type { Job } from '@/api/gen/model';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { isExternalLink, jobLabel, jobResultLink, WAITING_FOR_WORKER } from '../utils';
import { columnsFor, DataTable } from '@/components/data-table';

function StatusBadge({ job }: { job: Job }) {
  if (job.waitingForWorker) return <Badge bg="warning" text="dark">{WAITING_FOR_WORKER}</Badge>;
  const bg = job.status === 'done' ? 'secondary' : job.status === 'running' ? 'primary' : 'light';
  const text = job.status === 'running' ? `running (${Math.round(job.progress)}%)` : job.status;
  return (
    <Badge bg={bg} text={bg === 'light' ? 'dark' : undefined}>
      {text}
    </Badge>
  );
}

function Success({ job }: { job: Job }) {
  if (job.success === true) return <>Yes</>;
  if (job.success === false) return <span className="text-danger">No</span>;
  return <span className="text-body-secondary">—</span>;
}

function ResultCell({ job }: { job: Job }) {
  if (!job.completed && job.status !== 'done') return null;
  if (job.success === false) return <span className="text-danger">{job.error || job.result?.message}</span>;
  const link = jobResultLink(job);
  const message = job.result?.message;
  return (
    <>
      {message && <span className="me-2">{message}</span>}
      {link !== '/jobs' &&
        (isExternalLink(link) ? (
          <a href={link} target="_blank" rel="noreferrer">
            View Result
          </a>
        ) : (
          <Link to={link}>View Result</Link>
        ))}
    </>
  );
}

const REFRESH_MS = 2000;

const col = columnsFor<Job>();
const columns = col.columns([
  col.display({ id: 'label', header: 'Label', cell: ({ row }) => jobLabel(row.original) }),
  col.display({ id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge job={row.original} /> }),
  col.display({ id: 'success', header: 'Success', cell: ({ row }) => <Success job={row.original} /> }),
  col.accessor('created', { header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
  col.display({ id: 'result', header: 'Result', cell: ({ row }) => <ResultCell job={row.original} /> }),
]);

/** The jobs of the current client, newest first. */
export function JobsTable() {
  const { data, isPending, isError } = useListJobs({
    query: {
      // Keep the table current while some job is still running.
      refetchInterval: (query) =>
        query.state.data?.some((job) => job.is_active && !job.completed) ? REFRESH_MS : false,
    },
  });
  if (isPending) return <PageSpinner label="Loading jobs" />;
  if (isError) return <Alert variant="danger">Could not load jobs.</Alert>;
  if (data.length === 0) return <EmptyState>No jobs yet.</EmptyState>;
  const jobs = [...data].sort((a, b) => Date.parse(b.created) - Date.parse(a.created));
  return (
    <DataTable label="Jobs" columns={columns} data={jobs} hover small={false} />
  );
}

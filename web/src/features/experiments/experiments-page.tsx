import Table from 'react-bootstrap/Table';
import { Link, useSearchParams } from 'react-router';
import { useListExperiments } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { ExperimentCreateForm } from './experiment-create-form';
import { ExperimentDetailView } from './experiment-detail';

const METRICS: Record<string, string> = {
  open_rate: 'Open rate',
  click_rate: 'Click rate',
  response_rate: 'Response rate',
  rpm: 'RPM',
};

export const metricLabel = (metric: string) => METRICS[metric] ?? metric;

/** Email › Experiments (`/experiments`; `?id=` opens one experiment). */
export function ExperimentsPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '') || null;
  const list = useListExperiments({ query: { meta: { errorMessage: 'Could not load the experiments' } } });
  if (id !== null) return <ExperimentDetailView id={id} />;
  return (
    <div>
      <h1 className="h3 mb-3">Experiments</h1>
      {list.isPending ? (
        <PageSpinner label="Loading the experiments" />
      ) : (
        <Table responsive hover size="sm" aria-label="Experiments">
          <thead>
            <tr>
              <th>Name</th>
              <th>Mailing</th>
              <th>Metric</th>
              <th>Status</th>
              <th>Started</th>
              <th>Winner</th>
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((e) => (
              <tr key={e.id}>
                <td>
                  <Link to={`/experiments?id=${e.id}`}>{e.name}</Link>
                </td>
                <td>{e.mailingName}</td>
                <td>{metricLabel(e.metric)}</td>
                <td>{e.status.replace(/_/g, ' ')}</td>
                <td>{e.startedAt ? formatDateTime(e.startedAt) : ''}</td>
                <td>{e.winner ?? ''}</td>
              </tr>
            ))}
            {list.data?.length === 0 && (
              <tr>
                <td colSpan={6}>No experiments yet.</td>
              </tr>
            )}
          </tbody>
        </Table>
      )}
      <ExperimentCreateForm />
    </div>
  );
}

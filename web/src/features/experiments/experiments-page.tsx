import { Link, useSearchParams } from 'react-router';
import { useListExperiments } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { ExperimentCreateForm } from './experiment-create-form';
import { ExperimentDetailView } from './experiment-detail';
import { columnsFor, DataTable } from '@/components/data-table';
import type { ExperimentSummary } from '@/api/gen/model';

const METRICS: Record<string, string> = {
  open_rate: 'Open rate',
  click_rate: 'Click rate',
  response_rate: 'Response rate',
  rpm: 'RPM',
};

export const metricLabel = (metric: string) => METRICS[metric] ?? metric;

const col = columnsFor<ExperimentSummary>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (info) => <Link to={`/experiments?id=${info.row.original.id}`}>{info.getValue()}</Link>,
  }),
  col.accessor('mailingName', { header: 'Mailing' }),
  col.accessor('metric', { header: 'Metric', cell: (info) => metricLabel(info.getValue()) }),
  col.accessor('status', { header: 'Status', cell: (info) => info.getValue().replace(/_/g, ' ') }),
  col.accessor('startedAt', {
    header: 'Started',
    cell: (info) => {
      const at = info.getValue();
      return at ? formatDateTime(at) : '';
    },
  }),
  col.accessor('winner', { header: 'Winner', cell: (info) => info.getValue() ?? '' }),
]);

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
        <DataTable
          label="Experiments"
          columns={columns}
          data={list.data ?? []}
          empty={list.data ? 'No experiments yet.' : undefined}
          striped={false}
          hover
        />
      )}
      <ExperimentCreateForm />
    </div>
  );
}

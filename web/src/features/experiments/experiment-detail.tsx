import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  getGetExperimentQueryKey,
  getListExperimentsQueryKey,
  useGetExperiment,
  useSendExperimentWinner,
  useStartExperiment,
} from '@/api/gen';
import type { ExperimentDetail, VariantFigures } from '@/api/gen/model';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDateTime, formatP } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';
import { columnsFor, DataTable } from '@/components/data-table';

const figureCol = columnsFor<{ label: string; f: VariantFigures }>();
const figureColumns = figureCol.columns([
  figureCol.accessor('label', { header: 'Variant' }),
  figureCol.display({ id: 'recipients', header: 'Recipients', cell: ({ row }) => formatCount(row.original.f.recipients) }),
  figureCol.display({ id: 'delivered', header: 'Delivered', cell: ({ row }) => formatCount(row.original.f.delivered) }),
  figureCol.display({ id: 'opens', header: 'Opens', cell: ({ row }) => formatCount(row.original.f.opens) }),
  figureCol.display({ id: 'openRate', header: 'Open rate', cell: ({ row }) => formatPercent(row.original.f.openRate) }),
  figureCol.display({ id: 'clicks', header: 'Clicks', cell: ({ row }) => formatCount(row.original.f.clicks) }),
  figureCol.display({ id: 'clickRate', header: 'Click rate', cell: ({ row }) => formatPercent(row.original.f.clickRate) }),
  figureCol.display({ id: 'gifts', header: 'Gifts', cell: ({ row }) => formatCount(row.original.f.gifts) }),
  figureCol.display({
    id: 'responseRate',
    header: 'Response rate',
    cell: ({ row }) => formatPercent(row.original.f.responseRate),
  }),
  figureCol.display({ id: 'revenue', header: 'Revenue', cell: ({ row }) => formatMoney(row.original.f.revenue) }),
  figureCol.display({ id: 'rpm', header: 'RPM', cell: ({ row }) => formatMoney(row.original.f.rpm) }),
]);

function Decision({ e }: { e: ExperimentDetail }) {
  const r = e.result;
  if (!r) return e.decideAt ? <p>The result is computed at {formatDateTime(e.decideAt)}.</p> : null;
  const diff = r.difference ?? 0;
  return (
    <Alert variant={r.significant ? 'success' : 'secondary'} role="status">
      <div>{r.summary}</div>
      <div className="small mt-1">
        {r.test === 'welch' ? "Welch's t-test" : 'Two-proportion z-test'}: {formatP(r.pValue)}; difference{' '}
        {diff.toPrecision(4)} (95 % interval {r.ciLow?.toPrecision(4) ?? '—'} to {r.ciHigh?.toPrecision(4) ?? '—'})
        {e.decidedAt ? `; decided ${formatDateTime(e.decidedAt)}` : ''}
      </div>
    </Alert>
  );
}

/** One experiment: its variants' figures as they arrive, the decision, and the winner send. */
export function ExperimentDetailView({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const experiment = useGetExperiment(id, {
    query: {
      // While the test runs, its figures keep arriving.
      refetchInterval: (q) => (q.state.data && q.state.data.status !== 'finished' ? 5000 : false),
      meta: { errorMessage: 'Could not load the experiment' },
    },
  });
  const refresh = async (saved: ExperimentDetail) => {
    queryClient.setQueryData(getGetExperimentQueryKey(id), saved);
    // The list shows the status too: starting or sending the winner changes it.
    await queryClient.invalidateQueries({ queryKey: getListExperimentsQueryKey() });
  };
  const start = useStartExperiment({ mutation: { onSuccess: refresh, meta: { errorMessage: 'Could not start the experiment' } } });
  const sendWinner = useSendExperimentWinner({
    mutation: { onSuccess: refresh, meta: { errorMessage: 'Could not send the winner' } },
  });
  if (experiment.isPending || !experiment.data) return <PageSpinner label="Loading the experiment" />;
  const e = experiment.data;
  const held = e.result && e.winner && !e.winnerSentAt && !e.autoSend;
  return (
    <div>
      <Link to="/experiments">All experiments</Link>
      <h1 className="h3 my-2">{e.name}</h1>
      <p>
        {e.kindLabel} test of <Link to={`/crm-mailing-detail/${e.mailingId}`}>{e.mailingName}</Link> on{' '}
        {Math.round(e.testFraction * 100)} % of the audience; status: <strong>{e.status.replace(/_/g, ' ')}</strong>
      </p>
      {e.sampleSize?.warning && (
        <Alert variant="warning" role="alert">
          {e.sampleSize.warning}
        </Alert>
      )}
      {e.status === 'draft' && (
        <Button onClick={() => start.mutate({ id })} disabled={start.isPending}>
          Start test
        </Button>
      )}
      <Decision e={e} />
      {held && (
        <Button onClick={() => sendWinner.mutate({ id, data: {} })} disabled={sendWinner.isPending}>
          Send winner
        </Button>
      )}
      <DataTable
        label="Variants"
        columns={figureColumns}
        data={[
          ...e.variants.map((v) => ({ label: v.variant.toUpperCase(), f: v })),
          ...(e.winnerSend ? [{ label: `Winner send (${(e.winner ?? '').toUpperCase()})`, f: e.winnerSend }] : []),
        ]}
        rowHeader
        striped={false}
        className="mt-3"
      />
    </div>
  );
}

import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
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
import { formatCount, formatDateTime } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';

function FiguresRow({ label, f }: { label: string; f: VariantFigures }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{formatCount(f.recipients)}</td>
      <td>{formatCount(f.delivered)}</td>
      <td>{formatCount(f.opens)}</td>
      <td>{formatPercent(f.openRate)}</td>
      <td>{formatCount(f.clicks)}</td>
      <td>{formatPercent(f.clickRate)}</td>
      <td>{formatCount(f.gifts)}</td>
      <td>{formatPercent(f.responseRate)}</td>
      <td>{formatMoney(f.revenue)}</td>
      <td>{formatMoney(f.rpm)}</td>
    </tr>
  );
}

function Decision({ e }: { e: ExperimentDetail }) {
  const r = e.result;
  if (!r) return e.decideAt ? <p>The result is computed at {formatDateTime(e.decideAt)}.</p> : null;
  const diff = r.difference ?? 0;
  return (
    <Alert variant={r.significant ? 'success' : 'secondary'} role="status">
      <div>{r.summary}</div>
      <div className="small mt-1">
        {r.test === 'welch' ? "Welch's t-test" : 'Two-proportion z-test'}: p = {r.pValue?.toPrecision(4) ?? '—'}; difference{' '}
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
      <Table responsive size="sm" className="mt-3" aria-label="Variants">
        <thead>
          <tr>
            <th>Variant</th>
            <th>Recipients</th>
            <th>Delivered</th>
            <th>Opens</th>
            <th>Open rate</th>
            <th>Clicks</th>
            <th>Click rate</th>
            <th>Gifts</th>
            <th>Response rate</th>
            <th>Revenue</th>
            <th>RPM</th>
          </tr>
        </thead>
        <tbody>
          {e.variants.map((v) => (
            <FiguresRow key={v.variant} label={v.variant.toUpperCase()} f={v} />
          ))}
          {e.winnerSend && <FiguresRow label={`Winner send (${(e.winner ?? '').toUpperCase()})`} f={e.winnerSend} />}
        </tbody>
      </Table>
    </div>
  );
}

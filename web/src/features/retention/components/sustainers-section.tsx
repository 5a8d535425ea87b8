import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { useGetRetentionSustainers } from '@/api/gen';
import type { RetentionCell } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { formatCount, formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { cohortLabel, rate, sustainersOption } from '../utils';
import { CellButton } from './cell-button';

/** Sustainers month by month, churn, average amount and EARN. */
export function SustainersSection({ onOpen }: { onOpen: (cell: RetentionCell) => void }) {
  const view = useGetRetentionSustainers({ query: { meta: { errorMessage: 'Could not load the sustainers' } } });
  const s = view.data;
  const cell = (month: string, status: string): RetentionCell => ({ kind: 'sustainers', month, status });
  return (
    <Card className="mb-3">
      <Card.Body>
        <Card.Title as="h2" className="h6">
          Sustainers
        </Card.Title>
        {view.isPending && <PageSpinner label="Loading the sustainers" />}
        {view.isError && <Alert variant="danger">Could not load the sustainers.</Alert>}
        {s && (
          <>
            <StatTiles
              label="EARN"
              tiles={s.earn.map((e) => ({
                label: `EARN ${e.months}`,
                value: rate(e.rate),
                hint: `${formatCount(e.received)} of ${formatCount(e.expected)} payments`,
              }))}
            />
            <EChart label="Active, started and ended sustainers per month" option={sustainersOption(s.months)} />
            <div className="table-responsive">
              <Table size="sm" striped aria-label="Sustainers by month">
                <thead>
                  <tr>
                    <th>Month</th>
                    <th className="text-end">Active</th>
                    <th className="text-end">Started</th>
                    <th className="text-end">Ended</th>
                    <th className="text-end">Churn</th>
                    <th className="text-end">Average monthly amount</th>
                  </tr>
                </thead>
                <tbody>
                  {[...s.months].reverse().map((m) => {
                    const label = cohortLabel(m.month, 'month');
                    return (
                      <tr key={m.month}>
                        <th scope="row">{label}</th>
                        {(['active', 'started', 'ended'] as const).map((status) => (
                          <td key={status} className="text-end">
                            <CellButton label={`Sustainers ${status} in ${label}`} onOpen={() => onOpen(cell(m.month, status))}>
                              {formatCount(m[status])}
                            </CellButton>
                          </td>
                        ))}
                        <td className="text-end">{rate(m.churn)}</td>
                        <td className="text-end">{formatMoney(m.averageAmount)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </Table>
            </div>
            <p className="small text-body-secondary mb-0">
              A sustainer gave a recurring gift (not refunded) in the month; a series ends in the first month without one. Churn =
              ended ÷ active the month before. EARN n = payments received in sustainers’ first n months ÷ n per sustainer, over
              sustainers whose first n months are complete. Computed {formatDateTime(s.computed)}.
            </p>
          </>
        )}
      </Card.Body>
    </Card>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useGetRetention, useRefreshRetention } from '@/api/gen';
import type { RetentionCell } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { formatCount, formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { notifySuccess } from '@/lib/notifications';
import { CATEGORY_LABELS, cohortLabel, PERIODS, rate, waterfallOption } from '../utils';
import { CellButton } from './cell-button';
import { CohortsSection } from './cohorts-section';
import { DonorsDialog } from './donors-dialog';
import { SustainersSection } from './sustainers-section';

/** Revenue › Retention: who stays, who lapses and what a donor is worth (docs/retention.md). */
export function RetentionPage() {
  const [period, setPeriod] = useState('year');
  const [asOf, setAsOf] = useState('');
  const [cell, setCell] = useState<RetentionCell | null>(null);
  const params = { period, ...(asOf ? { asOf } : {}) };
  const view = useGetRetention(params, { query: { meta: { errorMessage: 'Could not load the retention figures' } } });
  const refresh = useRefreshRetention({
    mutation: {
      meta: { errorMessage: 'Could not start the refresh' },
      onSuccess: () => notifySuccess('Refresh Retention started; the figures update when it is done'),
    },
  });
  const r = view.data;
  const open = (c: RetentionCell) => setCell(c);
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        <h1 className="h3 mb-0 me-auto">Retention</h1>
        <Form.Group controlId="retention-period">
          <Form.Label className="small mb-0">Period</Form.Label>
          <Form.Select size="sm" value={period} onChange={(e) => setPeriod(e.target.value)}>
            {PERIODS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="retention-as-of">
          <Form.Label className="small mb-0">As of</Form.Label>
          <Form.Control size="sm" type="date" value={asOf} onChange={(e) => setAsOf(e.target.value)} />
        </Form.Group>
        <Button size="sm" variant="outline-primary" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
          Refresh figures
        </Button>
      </div>
      {view.isPending && <PageSpinner label="Loading the retention figures" />}
      {view.isError && <Alert variant="danger">Could not load the retention figures.</Alert>}
      {r && (
        <>
          <p className="small text-body-secondary mb-2" data-testid="retention-periods">
            {cohortLabel(r.from, 'month')} – {cohortLabel(r.to, 'month')} against {cohortLabel(r.previousFrom, 'month')} –{' '}
            {cohortLabel(r.previousTo, 'month')} (whole months, {r.timeZone}). Computed {formatDateTime(r.computed)}.
          </p>
          <StatTiles
            label="Retention"
            tiles={[
              { label: 'Donor retention', value: rate(r.donorRetention), hint: `${formatCount(r.retained)} of ${formatCount(r.donorsPrevious)}` },
              { label: 'Dollar retention', value: rate(r.dollarRetention) },
              { label: 'Donors before', value: formatCount(r.donorsPrevious) },
              { label: 'Donors now', value: formatCount(r.donorsCurrent) },
              { label: 'Gains', value: formatMoney(r.gains) },
              { label: 'Losses', value: formatMoney(r.losses) },
            ]}
          />
          <Card className="mb-3">
            <Card.Body>
              <Card.Title as="h2" className="h6">
                Gain/loss report
              </Card.Title>
              <Table size="sm" striped aria-label="Gain/loss report">
                <thead>
                  <tr>
                    <th>Donors</th>
                    <th className="text-end">Count</th>
                    <th className="text-end">Previous</th>
                    <th className="text-end">Current</th>
                    <th className="text-end">Change</th>
                  </tr>
                </thead>
                <tbody>
                  {r.lines.map((l) => (
                    <tr key={l.category}>
                      <th scope="row">{CATEGORY_LABELS[l.category] ?? l.category}</th>
                      <td className="text-end">
                        <CellButton
                          label={`${CATEGORY_LABELS[l.category]} donors: ${l.donors}`}
                          onOpen={() => open({ kind: 'retention', period, asOf: r.asOf, category: l.category })}
                        >
                          {formatCount(l.donors)}
                        </CellButton>
                      </td>
                      <td className="text-end">{formatMoney(l.previous)}</td>
                      <td className="text-end">{formatMoney(l.current)}</td>
                      <td className="text-end">{formatMoney(l.change)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    <td />
                    <td className="text-end">{formatMoney(r.dollarsPrevious)}</td>
                    <td className="text-end">{formatMoney(r.dollarsCurrent)}</td>
                    <td />
                  </tr>
                </tfoot>
              </Table>
              <EChart label="Dollars from the previous period to this one" option={waterfallOption(r.dollarsPrevious, r.lines, r.dollarsCurrent)} />
              <p className="small text-body-secondary mb-0">
                A donor gave in a period when their net there is above zero. Donor retention = donors who gave in both ÷ donors of
                the previous period; dollar retention = what those donors gave now ÷ everything the previous period’s donors gave.
                New: first gift ever in this period; recaptured: gave before the previous period, not in it.
              </p>
            </Card.Body>
          </Card>
        </>
      )}
      <CohortsSection onOpen={open} />
      <SustainersSection onOpen={open} />
      {cell && <DonorsDialog key={JSON.stringify(cell)} cell={cell} onClose={() => setCell(null)} />}
    </>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useGetRetentionCohorts } from '@/api/gen';
import type { RetentionCell } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { cohortLabel, curvesOption, heat, rate, SOURCES } from '../utils';
import { CellButton } from './cell-button';

/** Cohorts by first gift and acquisition source: the heat map, the curves and each source's lifetime value. */
export function CohortsSection({ onOpen }: { onOpen: (cell: RetentionCell) => void }) {
  const [grain, setGrain] = useState('month');
  const [by, setBy] = useState('all');
  const [source, setSource] = useState('');
  const view = useGetRetentionCohorts({ grain, by }, { query: { meta: { errorMessage: 'Could not load the cohorts' } } });
  const c = view.data;
  const sources = c ? [...new Set(c.cohorts.map((k) => k.source))] : [];
  const shown = source && sources.includes(source) ? source : (sources[0] ?? '');
  const cell = (extra: Partial<RetentionCell>, src: string): RetentionCell => ({ kind: 'cohort', grain, by, source: src, ...extra });
  return (
    <Card className="mb-3">
      <Card.Body>
        <div className="d-flex flex-wrap align-items-end gap-2 mb-2">
          <Card.Title as="h2" className="h6 me-auto mb-0">
            Cohorts by first gift
          </Card.Title>
          <Form.Group controlId="cohort-grain">
            <Form.Label className="small mb-0">Cohorts by</Form.Label>
            <Form.Select size="sm" value={grain} onChange={(e) => setGrain(e.target.value)}>
              <option value="month">Month</option>
              <option value="quarter">Quarter</option>
            </Form.Select>
          </Form.Group>
          <Form.Group controlId="cohort-by">
            <Form.Label className="small mb-0">Acquisition source</Form.Label>
            <Form.Select size="sm" value={by} onChange={(e) => setBy(e.target.value)}>
              {SOURCES.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          {sources.length > 1 && (
            <Form.Group controlId="cohort-source">
              <Form.Label className="small mb-0">Heat map of</Form.Label>
              <Form.Select size="sm" value={shown} onChange={(e) => setSource(e.target.value)}>
                {sources.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
          )}
        </div>
        {view.isPending && <PageSpinner label="Loading the cohorts" />}
        {view.isError && <Alert variant="danger">Could not load the cohorts.</Alert>}
        {c && (
          <>
            <p className="small text-body-secondary" data-testid="cohorts-computed">
              Computed {formatDateTime(c.computed)}; donors’ first gifts and sources as of the last refresh
              {c.refreshed ? ` (${formatDateTime(c.refreshed)})` : ' (never)'}.
            </p>
            <div className="table-responsive">
              <Table size="sm" bordered aria-label="Cohort heat map">
                <thead>
                  <tr>
                    <th>Cohort</th>
                    <th className="text-end">Donors</th>
                    {c.ages.map((a) => (
                      <th key={a} className="text-end">
                        Month {a}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {c.cohorts
                    .filter((k) => k.source === shown)
                    .map((k) => (
                      <tr key={`${k.source}-${k.cohort}`}>
                        <th scope="row">{cohortLabel(k.cohort, c.grain)}</th>
                        <td className="text-end">
                          <CellButton label={`Donors of ${cohortLabel(k.cohort, c.grain)}`} onOpen={() => onOpen(cell({ cohort: k.cohort }, k.source))}>
                            {formatCount(k.donors)}
                          </CellButton>
                        </td>
                        {k.cells.map((x) => (
                          <td key={x.age} className="text-end" style={{ background: heat(x.share) }}>
                            {x.share === null || x.share === undefined ? (
                              '—'
                            ) : (
                              <CellButton
                                label={`${cohortLabel(k.cohort, c.grain)} giving at month ${x.age}`}
                                onOpen={() => onOpen(cell({ cohort: k.cohort, age: x.age }, k.source))}
                              >
                                {rate(x.share)}
                                <div className="small">{formatMoney(x.revenuePerDonor)}</div>
                              </CellButton>
                            )}
                          </td>
                        ))}
                      </tr>
                    ))}
                </tbody>
              </Table>
            </div>
            <p className="small text-body-secondary">
              Each cell: the share of the cohort’s donors giving in that month after the month of their first gift, and their net
              per donor from the first gift through that month. A dash: the cohort is not that old yet.
            </p>
            {c.curves.length > 0 && <EChart label="Share of donors giving by month of giving, per source" option={curvesOption(c.curves)} />}
            <h3 className="h6 mt-3">Lifetime value by acquisition source</h3>
            <Table size="sm" striped aria-label="Lifetime value by source">
              <thead>
                <tr>
                  <th>Source</th>
                  <th className="text-end">Donors</th>
                  <th className="text-end">Revenue per donor to date</th>
                  <th className="text-end">Projected 25-month value</th>
                  <th className="text-end">Backtest error</th>
                </tr>
              </thead>
              <tbody>
                {c.values.map((v) => (
                  <tr key={v.source}>
                    <th scope="row">{v.source}</th>
                    <td className="text-end">
                      <CellButton label={`Donors from ${v.source}`} onOpen={() => onOpen(cell({}, v.source))}>
                        {formatCount(v.donors)}
                      </CellButton>
                    </td>
                    <td className="text-end">{formatMoney(v.observedPerDonor)}</td>
                    <td className="text-end">{formatMoney(v.projectedPerDonor)}</td>
                    <td className="text-end">
                      {rate(v.backtestMape)}
                      {v.backtestCohorts > 0 && <span className="small text-body-secondary"> ({v.backtestCohorts} cohorts)</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <p className="small text-body-secondary mb-0" data-testid="value-method">
              Method: a cohort’s value to date is grown to 25 months (the first gift’s month and 24 more) by the source’s own
              curve — the cumulative revenue per donor at 24 months ÷ at the cohort’s age, over the source’s cohorts already 24
              months old. Backtest error: the mean absolute percentage error of that projection made from month 6 for each of the
              latest 12 mature cohorts, each left out of the curve it is projected with. No mature cohort, no projection.
            </p>
          </>
        )}
      </Card.Body>
    </Card>
  );
}

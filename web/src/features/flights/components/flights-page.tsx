import { Fragment, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useGetFlightLinks, useListFlights } from '@/api/gen';
import type { FlightRow } from '@/api/gen/model';
import { DateRangePicker } from '@/components/date-range-picker';
import { PageSpinner } from '@/components/page-spinner';
import { isoDate, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';
import { downloadFile } from '@/lib/download';
import { groupFlights, sortFlights, type SortKey } from '../utils';
import { ExternalMailingsSection } from './external-mailings-section';

const COLUMNS: { key: SortKey; label: string; cell: (r: FlightRow) => string }[] = [
  { key: 'recipients', label: 'Recipients', cell: (r) => formatCount(r.recipients) },
  { key: 'delivered', label: 'Delivered', cell: (r) => formatCount(r.delivered) },
  { key: 'bounces', label: 'Bounces', cell: (r) => formatCount(r.bounces) },
  {
    key: 'humanOpens',
    label: 'Human opens',
    cell: (r) => `${formatCount(r.humanOpens)}${r.machineOpens ? ` (+${formatCount(r.machineOpens)} machine)` : ''}`,
  },
  { key: 'openRate', label: 'Open rate', cell: (r) => formatPercent(r.openRate) },
  { key: 'clickers', label: 'Clicks', cell: (r) => formatCount(r.clickers) },
  { key: 'clickRate', label: 'Click rate', cell: (r) => formatPercent(r.clickRate) },
  { key: 'unsubscribes', label: 'Unsubscribes', cell: (r) => formatCount(r.unsubscribes) },
  { key: 'gifts', label: 'Gifts', cell: (r) => formatCount(r.gifts) },
  { key: 'revenue', label: 'Revenue', cell: (r) => formatMoney(r.revenue) },
  { key: 'averageGift', label: 'Average gift', cell: (r) => formatMoney(r.averageGift) },
  { key: 'responseRate', label: 'Response rate', cell: (r) => formatPercent(r.responseRate, 2) },
  { key: 'rpm', label: 'RPM', cell: (r) => formatMoney(r.rpm) },
];

function lastDays(n: number): DateRange {
  const today = new Date();
  return {
    from: isoDate(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (n - 1))),
    to: isoDate(today),
  };
}

function LinkClicks({ id }: { id: number }) {
  const links = useGetFlightLinks(id, { query: { meta: { errorMessage: 'Could not load the links' } } });
  if (links.isPending) return <PageSpinner label="Loading links" />;
  if (!links.data?.length) return <p className="text-body-secondary small mb-0">No clicks yet.</p>;
  return (
    <Table responsive size="sm" className="mb-0" aria-label="Clicks per link">
      <thead>
        <tr>
          <th>Link</th>
          <th className="text-end">Clicks</th>
          <th className="text-end">People</th>
        </tr>
      </thead>
      <tbody>
        {links.data.map((l) => (
          <tr key={l.url}>
            <td className="text-break">{l.url}</td>
            <td className="text-end">{formatCount(l.clicks)}</td>
            <td className="text-end">{formatCount(l.clickers)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Email › Performance: every flight of the range by variant × segment, with totals, sorting and exports. */
export function FlightsPage() {
  const [range, setRange] = useState<DateRange>(lastDays(90));
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'day', descending: true });
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const flights = useListFlights(range, { query: { meta: { errorMessage: 'Could not load the flights' } } });
  const grouped = groupFlights(flights.data ?? []);
  const sorted = sortFlights(grouped.flights, sort.key, sort.descending);
  const query = `from=${range.from}&to=${range.to}`;
  const download = (kind: 'csv' | 'xlsx') =>
    downloadFile(`/api/flights/export/${kind}?${query}`, `flights-${range.from}-${range.to}.${kind}`).catch((e: Error) =>
      setError(e.message),
    );
  const header = (key: SortKey, label: string) => (
    <th
      className="text-end text-nowrap"
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      <Button
        variant="link"
        size="sm"
        className="p-0 text-reset fw-semibold text-decoration-none"
        onClick={() => setSort({ key, descending: sort.key === key ? !sort.descending : true })}
      >
        {label}
        {sort.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
      </Button>
    </th>
  );
  return (
    <>
      <h1 className="h3 mb-3">Performance</h1>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        <DateRangePicker value={range} onChange={setRange} />
        <Button size="sm" variant="outline-secondary" onClick={() => void download('csv')}>
          Export CSV
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => void download('xlsx')}>
          Export XLSX
        </Button>
      </div>
      {error && <Alert variant="danger">{error}</Alert>}
      {flights.isPending ? (
        <PageSpinner label="Loading flights" />
      ) : sorted.length === 0 ? (
        <Alert variant="info">No flights were sent in this range.</Alert>
      ) : (
        <div className="table-responsive">
          <Table responsive size="sm" hover aria-label="Flights">
            <thead>
              <tr>
                <th>
                  <Button
                    variant="link"
                    size="sm"
                    className="p-0 text-reset fw-semibold text-decoration-none"
                    onClick={() => setSort({ key: 'day', descending: sort.key === 'day' ? !sort.descending : true })}
                  >
                    Flight{sort.key === 'day' ? (sort.descending ? ' ▼' : ' ▲') : ''}
                  </Button>
                </th>
                <th>Variant</th>
                <th>Segment</th>
                {COLUMNS.map((c) => header(c.key, c.label))}
              </tr>
            </thead>
            <tbody>
              {sorted.map((f) => (
                <Fragment key={f.total.flightId}>
                  <tr className="table-light fw-semibold">
                    <td>
                      {f.total.name} <span className="text-body-secondary small">{f.total.day}</span>{' '}
                      <Button
                        variant="link"
                        size="sm"
                        className="p-0"
                        onClick={() => setOpen(open === f.total.flightId ? null : (f.total.flightId ?? null))}
                      >
                        {open === f.total.flightId ? 'Hide links' : 'Links'}
                      </Button>
                    </td>
                    <td>All</td>
                    <td />
                    {COLUMNS.map((c) => (
                      <td key={c.key} className="text-end">
                        {c.cell(f.total)}
                      </td>
                    ))}
                  </tr>
                  {f.rows.map((r) => (
                    <tr key={`${r.variant}-${r.segmentId}`}>
                      <td />
                      <td>{r.variant}</td>
                      <td>{r.segmentName}</td>
                      {COLUMNS.map((c) => (
                        <td key={c.key} className="text-end">
                          {c.cell(r)}
                        </td>
                      ))}
                    </tr>
                  ))}
                  {open === f.total.flightId && f.total.flightId != null && (
                    <tr>
                      <td colSpan={COLUMNS.length + 3}>
                        <LinkClicks id={f.total.flightId} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
            {grouped.total && (
              <tfoot>
                <tr className="fw-bold">
                  <td>Total</td>
                  <td />
                  <td />
                  {COLUMNS.map((c) => (
                    <td key={c.key} className="text-end">
                      {c.cell(grouped.total!)}
                    </td>
                  ))}
                </tr>
              </tfoot>
            )}
          </Table>
        </div>
      )}
      <ExternalMailingsSection range={range} />
    </>
  );
}

import { Fragment, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useGetFlightLinks, useListFlights } from '@/api/gen';
import type { FlightRow } from '@/api/gen/model';
import { DateRangePicker } from '@/components/date-range-picker';
import { EmailRevenueNote } from '@/components/definition-note';
import { PageSpinner } from '@/components/page-spinner';
import { formatIsoDate, isoDate, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';
import { downloadFile } from '@/lib/download';
import { groupFlights, sortFlights, type SortKey } from '../utils';
import { ExternalMailingsSection } from './external-mailings-section';
import { clientToday } from '@/lib/time-zone';
import { columnsFor, DataTable } from '@/components/data-table';
import type { LinkClicks as LinkClicksRow } from '@/api/gen/model';

const COLUMNS: { key: SortKey; label: string; cell: (r: FlightRow) => string }[] = [
  { key: 'revenue', label: 'Revenue', cell: (r) => formatMoney(r.revenue) },
  { key: 'gifts', label: 'Gifts', cell: (r) => formatCount(r.gifts) },
  { key: 'averageGift', label: 'Average gift', cell: (r) => formatMoney(r.averageGift) },
  { key: 'responseRate', label: 'Response rate', cell: (r) => formatPercent(r.responseRate, 2) },
  { key: 'rpm', label: 'RPM', cell: (r) => formatMoney(r.rpm) },
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
];

function lastDays(n: number): DateRange {
  const today = clientToday();
  return {
    from: isoDate(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (n - 1))),
    to: isoDate(today),
  };
}

const linkCol = columnsFor<LinkClicksRow>();
const linkColumns = linkCol.columns([
  linkCol.accessor('url', { header: 'Link' }),
  linkCol.accessor('clicks', { header: 'Clicks', cell: (info) => formatCount(info.getValue()) }),
  linkCol.accessor('clickers', { header: 'People', cell: (info) => formatCount(info.getValue()) }),
]);

function LinkClicks({ id }: { id: number }) {
  const links = useGetFlightLinks(id, { query: { meta: { errorMessage: 'Could not load the links' } } });
  if (links.isPending) return <PageSpinner label="Loading links" />;
  if (!links.data?.length) return <p className="text-body-secondary small mb-0">No clicks yet.</p>;
  return (
    <DataTable
      label="Clicks per link"
      columns={linkColumns}
      data={links.data}
      numeric={['clicks', 'clickers']}
      cellClassName={{ url: 'text-break' }}
      striped={false}
      className="mb-0"
    />
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
      <EmailRevenueNote extra="Each flight is one mailing; the total is the range's e-mail revenue. External mailings are listed apart." />
      {error && <Alert variant="danger">{error}</Alert>}
      {flights.isPending ? (
        <PageSpinner label="Loading flights" />
      ) : sorted.length === 0 ? (
        <Alert variant="info">No flights were sent in this range.</Alert>
      ) : (
        <div className="table-responsive" tabIndex={0} role="region" aria-label="Flights (scrolls sideways)">
          <Table size="sm" hover aria-label="Flights" className="table-sticky-first">
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
                  <tr className="table-total-row fw-semibold">
                    <td>
                      {f.total.name} <span className="small">{f.total.day ? formatIsoDate(f.total.day) : ''}</span>{' '}
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

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useGetFlightLinks, useListFlights } from '@/api/gen';
import type { FlightRow } from '@/api/gen/model';
import { DateRangePicker } from '@/components/date-range-picker';
import { DeliveryRatesSection } from '@/components/delivery-rates';
import { EmailRevenueNote } from '@/components/definition-note';
import { PageSpinner } from '@/components/page-spinner';
import { formatIsoDate, isoDate, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';
import { downloadFile } from '@/lib/download';
import { groupFlights, sortFlights, type SortKey } from '../utils';
import { ExternalMailingsSection } from './external-mailings-section';
import { clientToday } from '@/lib/time-zone';
import { columnsFor, DataTable, type SortState } from '@/components/data-table';
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

const FIGURES = COLUMNS.map((c) => c.key);
const SORTABLE: string[] = ['day', ...FIGURES];
const NOWRAP = Object.fromEntries(FIGURES.map((key) => [key, 'text-nowrap']));
const isSortKey = (id: string): id is SortKey => SORTABLE.includes(id);

/**
 * A line of the table: a flight's total (with whether its links show and the toggle of its Links button), one of
 * its variant × segment rows, or the range's total.
 */
type Line =
  | { kind: 'flight'; row: FlightRow; linksOpen: boolean; toggleLinks: () => void }
  | { kind: 'variant' | 'total'; row: FlightRow };

const lineId = ({ kind, row }: Line) =>
  kind === 'total'
    ? 'total'
    : kind === 'flight'
      ? `${row.flightId}`
      : `${row.flightId}-${row.variant}-${row.segmentId}`;

const lineClass = ({ kind }: Line) =>
  kind === 'flight' ? 'table-total-row fw-semibold' : kind === 'total' ? 'fw-bold' : undefined;

const lineCol = columnsFor<Line>();

// Fixed columns: a cell is a component, and a new cell function each render would remount it (losing the focus of
// the Links button).
const flightColumns = lineCol.columns([
  lineCol.display({
    id: 'day',
    header: 'Flight',
    cell: ({ row: { original: line } }) =>
      line.kind === 'total' ? (
        'Total'
      ) : line.kind === 'flight' ? (
        <>
          {line.row.name} <span className="small">{line.row.day ? formatIsoDate(line.row.day) : ''}</span>{' '}
          <Button variant="link" size="sm" className="p-0" onClick={line.toggleLinks}>
            {line.linksOpen ? 'Hide links' : 'Links'}
          </Button>
        </>
      ) : null,
  }),
  lineCol.display({
    id: 'variant',
    header: 'Variant',
    cell: ({ row: { original: line } }) =>
      line.kind === 'flight' ? 'All' : line.kind === 'variant' ? line.row.variant : null,
  }),
  lineCol.display({
    id: 'segment',
    header: 'Segment',
    cell: ({ row: { original: line } }) => (line.kind === 'variant' ? line.row.segmentName : null),
  }),
  ...COLUMNS.map((c) => lineCol.display({ id: c.key, header: c.label, cell: ({ row }) => c.cell(row.original.row) })),
]);

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
  const [sort, setSort] = useState<{ id: SortKey; desc: boolean }>({ id: 'day', desc: true });
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const flights = useListFlights(range, { query: { meta: { errorMessage: 'Could not load the flights' } } });
  const grouped = groupFlights(flights.data ?? []);
  const sorted = sortFlights(grouped.flights, sort.id, sort.desc);
  const lines: Line[] = sorted.flatMap((f) => {
    const flightId = f.total.flightId ?? null;
    const linksOpen = open === flightId;
    return [
      { kind: 'flight' as const, row: f.total, linksOpen, toggleLinks: () => setOpen(linksOpen ? null : flightId) },
      ...f.rows.map((row) => ({ kind: 'variant' as const, row })),
    ];
  });
  const changeSort = ({ id, desc }: SortState) => {
    if (isSortKey(id)) setSort({ id, desc });
  };
  const query = `from=${range.from}&to=${range.to}`;
  const download = (kind: 'csv' | 'xlsx') =>
    downloadFile(`/api/flights/export/${kind}?${query}`, `flights-${range.from}-${range.to}.${kind}`).catch((e: Error) =>
      setError(e.message),
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
        <DataTable
          label="Flights"
          columns={flightColumns}
          data={lines}
          footerRows={grouped.total ? [{ kind: 'total', row: grouped.total }] : undefined}
          getRowId={lineId}
          rowClassName={lineClass}
          rowDetail={(line) =>
            line.kind === 'flight' && line.linksOpen && line.row.flightId != null ? (
              <LinkClicks id={line.row.flightId} />
            ) : null
          }
          numeric={FIGURES}
          headerClassName={NOWRAP}
          sortable={SORTABLE}
          sort={sort}
          onSortChange={changeSort}
          stickyFirst
          striped={false}
          hover
          className=""
        />
      )}
      <ExternalMailingsSection range={range} />
      <DeliveryRatesSection range={range} />
    </>
  );
}

import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { PortfolioClient, PortfolioFigures } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { share, SORTABLE, sortClients, type PortfolioSort } from '../utils';
import { Sparkline } from './sparkline';

/** A row with what its cells need: the figures, and how to open the client (a value that changes per render). */
interface Row {
  client: PortfolioClient;
  f: PortfolioFigures | null;
  open: () => void;
  opening: boolean;
}

const col = columnsFor<Row>();
const dash = '—';

/** Net with its goal and pacing under it. */
function NetCell({ net, goal, pacing }: { net: string; goal?: string | null; pacing?: number | null }) {
  return (
    <>
      <div>{formatMoney(net)}</div>
      <div className="small text-body-secondary text-nowrap">
        {goal ? `goal ${formatMoney(goal)}` : 'no goal'} · {pacing === null || pacing === undefined ? 'no projection' : `${share(pacing, 0)} of projection`}
      </div>
    </>
  );
}

const COLUMNS = col.columns([
  col.accessor((r) => r.client.name, {
    id: 'name',
    header: 'Client',
    cell: (info) => (
      <Button
        variant="link"
        className="p-0 text-start"
        disabled={info.row.original.opening}
        onClick={(e) => {
          e.stopPropagation();
          info.row.original.open();
        }}
      >
        {info.getValue()}
      </Button>
    ),
  }),
  col.display({
    id: 'monthNet',
    header: 'This month',
    cell: ({ row: { original: r } }) =>
      r.f ? <NetCell net={r.f.monthNet} goal={r.f.monthGoal} pacing={r.f.monthPacing} /> : 'Figures unavailable',
  }),
  col.display({
    id: 'yearNet',
    header: 'Year to date',
    cell: ({ row: { original: r } }) =>
      r.f ? <NetCell net={r.f.yearNet} goal={r.f.yearGoal} pacing={r.f.yearPacing} /> : dash,
  }),
  col.display({
    id: 'netByMonth',
    header: '12 months',
    cell: ({ row: { original: r } }) =>
      r.f ? <Sparkline values={r.f.netByMonth} label={`${r.client.name}: net per month, last 12 months`} /> : dash,
  }),
  col.display({ id: 'newDonors', header: 'New donors', cell: ({ row: { original: r } }) => (r.f ? formatCount(r.f.newDonors) : dash) }),
  col.display({ id: 'retention', header: 'Retention', cell: ({ row: { original: r } }) => share(r.f?.retention) }),
  col.display({ id: 'sustainers', header: 'Sustainers', cell: ({ row: { original: r } }) => (r.f ? formatCount(r.f.sustainers) : dash) }),
  col.display({ id: 'listSize', header: 'List', cell: ({ row: { original: r } }) => (r.f ? formatCount(r.f.listSize) : dash) }),
  col.display({
    id: 'listChange30',
    header: '30-day change',
    cell: ({ row: { original: r } }) => {
      if (!r.f) return dash;
      const n = r.f.listChange30;
      return n > 0 ? `+${formatCount(n)}` : n < 0 ? `−${formatCount(-n)}` : '0';
    },
  }),
  col.display({ id: 'rpm', header: 'E-mail RPM', cell: ({ row: { original: r } }) => formatMoney(r.f?.rpm) }),
  col.display({ id: 'bounceRate', header: 'Bounce rate', cell: ({ row: { original: r } }) => share(r.f?.bounceRate, 2) }),
  col.display({ id: 'complaintRate', header: 'Complaint rate', cell: ({ row: { original: r } }) => share(r.f?.complaintRate, 2) }),
  col.display({ id: 'jobsFailing', header: 'Jobs failing', cell: ({ row: { original: r } }) => (r.f ? formatCount(r.f.jobsFailing) : dash) }),
  col.display({ id: 'mailingsPaused', header: 'Mailings paused', cell: ({ row: { original: r } }) => (r.f ? formatCount(r.f.mailingsPaused) : dash) }),
]);

const NUMERIC = COLUMNS.map((c) => c.id ?? '').filter((id) => id !== 'name' && id !== 'netByMonth');

export interface PortfolioTableProps {
  clients: PortfolioClient[];
  onOpen: (client: PortfolioClient) => void;
  /** The client being opened (its switch is under way). */
  openingId?: number;
}

/** Every client the user may use, one row each; sortable by any figure; a click opens the client's dashboard. */
export function PortfolioTable({ clients, onOpen, openingId }: PortfolioTableProps) {
  const [sort, setSort] = useState<PortfolioSort>({ id: 'name', desc: false });
  const rows = useMemo(
    () =>
      sortClients(clients, sort).map((client) => ({
        client,
        f: client.figures ?? null,
        open: () => onOpen(client),
        opening: openingId !== undefined,
      })),
    [clients, sort, onOpen, openingId],
  );
  return (
    <DataTable
      label="Clients"
      columns={COLUMNS}
      data={rows}
      numeric={NUMERIC}
      sortable={SORTABLE}
      sort={sort}
      onSortChange={setSort}
      onRowClick={(r) => r.open()}
      getRowId={(r) => String(r.client.id)}
      stickyFirst
      rowHeader
      empty="You have no clients yet."
    />
  );
}

import { useMemo } from 'react';
import type { PortfolioBenchmarks, PortfolioClient } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { formatMoney } from '@/lib/money';
import { amount, share, versusMedian } from '../utils';

interface Row {
  id: string;
  name: string;
  rpm: string | null;
  responseRate: number | null;
  retention: number | null;
  costPerDonor: string | null;
  median: PortfolioBenchmarks;
  total?: boolean;
}

const col = columnsFor<Row>();

/** A value with how it compares with the median under it (not on the median row itself). */
function Versus({ text, value, median, total }: { text: string; value: number | null; median: number | null; total?: boolean }) {
  return (
    <>
      <div>{text}</div>
      {!total && <div className="small text-body-secondary">{versusMedian(value, median)}</div>}
    </>
  );
}

const COLUMNS = col.columns([
  col.accessor('name', { header: 'Client' }),
  col.display({
    id: 'rpm',
    header: 'E-mail RPM',
    cell: ({ row: { original: r } }) => (
      <Versus text={formatMoney(r.rpm)} value={amount(r.rpm)} median={amount(r.median.rpm)} total={r.total} />
    ),
  }),
  col.display({
    id: 'responseRate',
    header: 'Response rate',
    cell: ({ row: { original: r } }) => (
      <Versus text={share(r.responseRate, 2)} value={r.responseRate} median={r.median.responseRate ?? null} total={r.total} />
    ),
  }),
  col.display({
    id: 'retention',
    header: 'Donor retention',
    cell: ({ row: { original: r } }) => (
      <Versus text={share(r.retention)} value={r.retention} median={r.median.retention ?? null} total={r.total} />
    ),
  }),
  col.display({
    id: 'costPerDonor',
    header: 'Cost per donor',
    cell: ({ row: { original: r } }) => (
      <Versus
        text={formatMoney(r.costPerDonor)}
        value={amount(r.costPerDonor)}
        median={amount(r.median.costPerDonor)}
        total={r.total}
      />
    ),
  }),
]);

/** Each client's RPM, response rate, retention and cost per donor against the median of the user's clients. */
export function BenchmarksTable({ clients, median }: { clients: PortfolioClient[]; median: PortfolioBenchmarks }) {
  const rows = useMemo(
    (): Row[] =>
      clients.map((c) => ({
        id: String(c.id),
        name: c.name,
        rpm: c.figures?.rpm ?? null,
        responseRate: c.figures?.responseRate ?? null,
        retention: c.figures?.retention ?? null,
        costPerDonor: c.figures?.costPerDonor ?? null,
        median,
      })),
    [clients, median],
  );
  const footer = useMemo(
    (): Row[] => [
      {
        id: 'median',
        name: 'Median of your clients',
        rpm: median.rpm ?? null,
        responseRate: median.responseRate ?? null,
        retention: median.retention ?? null,
        costPerDonor: median.costPerDonor ?? null,
        median,
        total: true,
      },
    ],
    [median],
  );
  return (
    <DataTable
      label="Benchmarks"
      columns={COLUMNS}
      data={rows}
      footerRows={footer}
      getRowId={(r) => r.id}
      numeric={['rpm', 'responseRate', 'retention', 'costPerDonor']}
      rowClassName={(r) => (r.total ? 'fw-semibold' : undefined)}
      rowHeader
    />
  );
}

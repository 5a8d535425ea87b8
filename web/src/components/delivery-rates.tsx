import Alert from 'react-bootstrap/Alert';
import { useGetDeliveryRates } from '@/api/gen';
import type { DeliveryRates as Rates, GetDeliveryRatesParams } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount } from '@/lib/format';
import { formatRate, providerName } from '@/lib/delivery-rates';

const GROUP_HEADER: Record<GetDeliveryRatesParams['by'], string> = {
  mailing: 'Mailing',
  sender_domain: 'Sender domain',
  provider: 'Mailbox provider',
};

const groupLabel = (by: GetDeliveryRatesParams['by'], row: Rates): string => {
  if (by === 'provider') return providerName(row.group);
  if (by === 'mailing') return row.label ?? `Mailing ${row.group}`;
  return row.group || '—';
};

const col = columnsFor<Rates>();
const rateCell = (rate: string | null | undefined, count: number) => `${formatRate(rate)} (${formatCount(count)})`;
const columnsBy = (by: GetDeliveryRatesParams['by']) =>
  col.columns([
    col.display({ id: 'group', header: GROUP_HEADER[by], cell: ({ row }) => groupLabel(by, row.original) }),
    col.accessor('sent', { header: 'Sent', cell: (i) => formatCount(i.getValue()) }),
    col.accessor('delivered', { header: 'Delivered', cell: (i) => formatCount(i.getValue()) }),
    col.display({
      id: 'hardBounceRate',
      header: 'Hard bounces',
      cell: ({ row }) => rateCell(row.original.hardBounceRate, row.original.hardBounced),
    }),
    col.display({
      id: 'softBounceRate',
      header: 'Soft bounces',
      cell: ({ row }) => rateCell(row.original.softBounceRate, row.original.softBounced),
    }),
    col.display({
      id: 'complaintRate',
      header: 'Complaints',
      cell: ({ row }) => rateCell(row.original.complaintRate, row.original.complained),
    }),
  ]);
const NUMERIC = ['sent', 'delivered', 'hardBounceRate', 'softBounceRate', 'complaintRate'];
const COLUMNS = {
  mailing: columnsBy('mailing'),
  sender_domain: columnsBy('sender_domain'),
  provider: columnsBy('provider'),
};

export interface DeliveryRatesProps {
  by: GetDeliveryRatesParams['by'];
  /** One mailing's figures; otherwise the mailings sent in `from`–`to`. */
  mailingId?: number;
  from?: string;
  to?: string;
  /** The table's accessible name. */
  label: string;
}

/**
 * Bounce and complaint rates per mailing, sender domain or mailbox provider. Bounce rate = bounced recipients / sent;
 * complaint rate = complaints / delivered (sent − hard bounced).
 */
export function DeliveryRates({ by, mailingId, from, to, label }: DeliveryRatesProps) {
  const params: GetDeliveryRatesParams = {
    by,
    ...(mailingId !== undefined ? { mailingId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const rates = useGetDeliveryRates(params, { query: { meta: { errorMessage: 'Could not load the delivery rates' } } });
  if (rates.isPending) return <PageSpinner label="Loading delivery rates" />;
  if (rates.isError) return <Alert variant="danger">Could not load the delivery rates.</Alert>;
  const columns = COLUMNS[by];
  return (
    <div className="table-responsive">
      <DataTable label={label} columns={columns} data={rates.data} numeric={NUMERIC} empty="Nothing sent yet." striped={false} />
    </div>
  );
}

/** The rates note every page shows under its table. */
export function RatesDefinition() {
  return (
    <p className="small text-body-secondary mb-0">
      Bounce rate = bounced recipients / sent. Complaint rate = complaints / delivered (sent − hard bounced). Gmail and
      Yahoo expect complaints under 0.1 %; a send pauses itself past the limits set in Settings.
    </p>
  );
}

/** Performance and E-mail Analytics: the range's bounce and complaint rates per sender domain, provider and mailing. */
export function DeliveryRatesSection({ range }: { range: { from: string; to: string } }) {
  return (
    <section aria-labelledby="delivery-rates-title" className="mt-4">
      <h2 id="delivery-rates-title" className="h5">
        Bounces and complaints
      </h2>
      <div className="row g-3">
        <div className="col-lg-6">
          <h3 className="h6">By sender domain</h3>
          <DeliveryRates by="sender_domain" from={range.from} to={range.to} label="Bounces and complaints by sender domain" />
        </div>
        <div className="col-lg-6">
          <h3 className="h6">By mailbox provider</h3>
          <DeliveryRates by="provider" from={range.from} to={range.to} label="Bounces and complaints by mailbox provider" />
        </div>
      </div>
      <h3 className="h6 mt-3">By mailing</h3>
      <DeliveryRates by="mailing" from={range.from} to={range.to} label="Bounces and complaints by mailing" />
      <RatesDefinition />
    </section>
  );
}

import Alert from 'react-bootstrap/Alert';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import ToggleButton from 'react-bootstrap/ToggleButton';
import { useSearchParams } from 'react-router';
import { useGetEmailAnalytics, useListExternalMailings } from '@/api/gen';
import type { EmailCell, EmailPeriod, ExternalMailingRow } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { columnsFor, DataTable } from '@/components/data-table';
import { DateRangePicker } from '@/components/date-range-picker';
import { DeliveryRatesSection } from '@/components/delivery-rates';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { formatIsoDate, isoDate, isValidRange, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { EmailRevenueNote } from '@/components/definition-note';
import { formatRate, heatMapOption, listOption, ratesOption, revenueOption, totalTiles } from './utils';
import { clientToday } from '@/lib/time-zone';

const periodCol = columnsFor<EmailPeriod>();
const periodColumns = periodCol.columns([
  periodCol.accessor('start', { header: 'Period', cell: (i) => `${formatIsoDate(i.getValue())} – ${formatIsoDate(i.row.original.last)}` }),
  periodCol.accessor('subscribed', { header: 'Subscribed', cell: (i) => formatCount(i.getValue()) }),
  periodCol.accessor('newSubscribers', { header: 'New', cell: (i) => formatCount(i.getValue()) }),
  periodCol.accessor('unsubscribes', { header: 'Unsubscribes', cell: (i) => formatCount(i.getValue()) }),
  periodCol.accessor('bounces', { header: 'Bounces', cell: (i) => formatCount(i.getValue()) }),
  periodCol.accessor('activeRate', { header: 'Active rate', cell: (i) => formatRate(i.getValue()) }),
  periodCol.accessor('sent', { header: 'Sent', cell: (i) => formatCount(i.getValue()) }),
  periodCol.accessor('deliveryRate', { header: 'Delivery rate', cell: (i) => formatRate(i.getValue()) }),
  periodCol.accessor('bounceRate', { header: 'Bounce rate', cell: (i) => formatRate(i.getValue()) }),
  periodCol.accessor('openRate', { header: 'Open rate', cell: (i) => formatRate(i.getValue()) }),
  periodCol.accessor('clickRate', { header: 'Click rate', cell: (i) => formatRate(i.getValue()) }),
  periodCol.accessor('revenue', { header: 'Revenue', cell: (i) => formatMoney(i.getValue()) }),
  periodCol.accessor('rpm', { header: 'RPM', cell: (i) => formatMoney(i.getValue()) }),
]);
const PERIOD_NUMERIC = ['subscribed', 'newSubscribers', 'unsubscribes', 'bounces', 'activeRate', 'sent', 'deliveryRate', 'bounceRate', 'openRate', 'clickRate', 'revenue', 'rpm'];

const PROVIDER_LABEL: Record<string, string> = { gmail: 'Gmail', yahoo: 'Yahoo', outlook: 'Outlook', other: 'Other' };
const cellCol = columnsFor<EmailCell>();
const providerColumns = cellCol.columns([
  cellCol.accessor('provider', { header: 'Mailbox provider', cell: (i) => PROVIDER_LABEL[i.getValue()] ?? i.getValue() }),
  cellCol.accessor('sent', { header: 'Sent', cell: (i) => formatCount(i.getValue()) }),
  cellCol.accessor('delivered', { header: 'Delivered', cell: (i) => formatCount(i.getValue()) }),
  cellCol.accessor('deliveryRate', { header: 'Delivery rate', cell: (i) => formatRate(i.getValue()) }),
  cellCol.accessor('bounceRate', { header: 'Bounce rate', cell: (i) => formatRate(i.getValue()) }),
  cellCol.accessor('openRate', { header: 'Open rate', cell: (i) => formatRate(i.getValue()) }),
  cellCol.accessor('clickRate', { header: 'Click rate', cell: (i) => formatRate(i.getValue()) }),
  cellCol.accessor('unsubscribed', { header: 'Unsubscribes', cell: (i) => formatCount(i.getValue()) }),
]);

const SOURCE_LABEL: Record<string, string> = { esp: 'Other platform', lemlist: 'lemlist' };
const extCol = columnsFor<ExternalMailingRow>();
const externalColumns = extCol.columns([
  extCol.accessor('sentOn', { header: 'Sent on', cell: (i) => formatIsoDate(i.getValue()) }),
  extCol.accessor('name', { header: 'Name' }),
  extCol.accessor('source', { header: 'Source', cell: (i) => SOURCE_LABEL[i.getValue()] ?? i.getValue() }),
  extCol.accessor('recipients', { header: 'Recipients', cell: (i) => formatCount(i.getValue()) }),
  extCol.accessor('delivered', { header: 'Delivered', cell: (i) => formatCount(i.getValue()) }),
  extCol.accessor('bounces', { header: 'Bounces', cell: (i) => formatCount(i.getValue()) }),
  extCol.accessor('opens', { header: 'Opens', cell: (i) => formatCount(i.getValue()) }),
  extCol.accessor('clicks', { header: 'Clicks', cell: (i) => formatCount(i.getValue()) }),
  extCol.accessor('unsubscribes', { header: 'Unsubscribes', cell: (i) => formatCount(i.getValue()) }),
  extCol.accessor('revenue', { header: 'Revenue', cell: (i) => formatMoney(i.getValue()) }),
]);

/** The last six months up to today. */
export function defaultRange(today: Date = clientToday()): DateRange {
  return { from: isoDate(new Date(today.getFullYear(), today.getMonth() - 5, 1)), to: isoDate(today) };
}

function ExternalMailings({ range }: { range: DateRange }) {
  const external = useListExternalMailings(range, { query: { meta: { errorMessage: 'Could not load external mailings' } } });
  if (external.isPending) return <PageSpinner label="Loading external mailings" />;
  if (external.isError) return <Alert variant="danger">Could not load external mailings.</Alert>;
  if (external.data.length === 0) return <EmptyState>No external mailings in this range.</EmptyState>;
  return (
    <DataTable
      stickyFirst
      label="External mailings" columnChoiceKey="email-analytics-external"
      columns={externalColumns}
      data={external.data}
      numeric={['recipients', 'delivered', 'bounces', 'opens', 'clicks', 'unsubscribes', 'revenue']}
    />
  );
}

/** Email › E-mail Analytics: the programme by week or month (docs/email-analytics.md). */
export function EmailAnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const asked = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const range = isValidRange(asked) ? asked : defaultRange();
  const grain = params.get('grain') === 'week' ? 'week' : 'month';
  const update = (changes: Record<string, string>) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) out.set(key, value);
      return out;
    });
  const analytics = useGetEmailAnalytics({ ...range, grain }, { query: { meta: { errorMessage: 'Could not load e-mail analytics' } } });
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">E-mail Analytics</h1>
        <ButtonGroup aria-label="Group by">
          {(
            [
              ['week', 'By week'],
              ['month', 'By month'],
            ] as const
          ).map(([value, text]) => (
            <ToggleButton
              key={value}
              id={`grain-${value}`}
              type="radio"
              size="sm"
              variant="outline-secondary"
              name="grain"
              value={value}
              checked={grain === value}
              onChange={() => update({ grain: value })}
            >
              {text}
            </ToggleButton>
          ))}
        </ButtonGroup>
        <DateRangePicker value={range} onChange={(r) => update({ from: r.from, to: r.to })} />
      </div>
      {analytics.isPending ? (
        <PageSpinner label="Loading e-mail analytics" />
      ) : analytics.isError ? (
        <Alert variant="danger">Could not load e-mail analytics.</Alert>
      ) : (
        <>
          <StatTiles label="Programme totals" tiles={totalTiles(analytics.data.total)} />
          <div className="row g-3 mb-3">
            <div className="col-lg-6">
              <h2 className="h6">List</h2>
              <EChart label="Subscribed list size, new subscribers, unsubscribes and bounces" option={listOption(analytics.data.periods)} />
            </div>
            <div className="col-lg-6">
              <h2 className="h6">Rates</h2>
              <EChart label="Active, delivery, bounce, open and click rates" option={ratesOption(analytics.data.periods)} />
            </div>
            <div className="col-lg-6">
              <h2 className="h6">Revenue from e-mail</h2>
              <EmailRevenueNote extra="This page adds the revenue and deliveries of external mailings, on their send day." />
              <EChart label="Revenue from e-mail and RPM" option={revenueOption(analytics.data.periods)} />
            </div>
            <div className="col-lg-6">
              <h2 className="h6">Click rate by send hour and weekday</h2>
              <EChart label="Click rate by send hour and weekday" option={heatMapOption(analytics.data.heatMap)} height={320} />
            </div>
          </div>
          <h2 className="h5">By {grain}</h2>
          <DataTable stickyFirst label={`Programme by ${grain}`} columns={periodColumns} data={analytics.data.periods} numeric={PERIOD_NUMERIC} />
          <h2 className="h5 mt-4">By mailbox provider</h2>
          <DataTable
      stickyFirst
            label="By mailbox provider"
            columns={providerColumns}
            data={analytics.data.providers}
            numeric={['sent', 'delivered', 'deliveryRate', 'bounceRate', 'openRate', 'clickRate', 'unsubscribed']}
          />
        </>
      )}
      <h2 className="h5 mt-4">External mailings</h2>
      <ExternalMailings range={range} />
      <DeliveryRatesSection range={range} />
    </>
  );
}

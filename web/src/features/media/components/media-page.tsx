import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useGetMediaPerformance, useGetMediaSeries, useListAdCampaignNames } from '@/api/gen';
import type { MediaLevel, MediaRow } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { columnsFor, DataTable } from '@/components/data-table';
import { DateRangePicker } from '@/components/date-range-picker';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { isoDate, isValidRange, type DateRange } from '@/lib/date-range';
import { formatMoney } from '@/lib/money';
import { formatCtr, formatRatioMoney, formatRoas, mediaTiles, spendRevenueOption } from '../utils';
import { AdCodesDialog } from './ad-codes-dialog';
import { MediaImportDialog } from './media-import-dialog';
import { clientToday } from '@/lib/time-zone';

const col = columnsFor<MediaRow>();
const nameHeader: Record<MediaLevel, string> = { campaign: 'Campaign', group: 'Ad group', ad: 'Ad' };

function columnsFor_(level: MediaLevel) {
  return col.columns([
    col.accessor('name', { header: nameHeader[level] }),
    col.accessor('spend', { header: 'Spend', cell: (i) => formatMoney(i.getValue()) }),
    col.accessor('revenue365', { header: 'Revenue 365 days', cell: (i) => formatMoney(i.getValue()) }),
    col.accessor('roas365', { header: 'ROAS 365 days', cell: (i) => formatRoas(i.getValue()) }),
    col.accessor('revenue0', { header: 'Revenue same day', cell: (i) => formatMoney(i.getValue()) }),
    col.accessor('roas0', { header: 'ROAS same day', cell: (i) => formatRoas(i.getValue()) }),
    col.accessor('roas30', { header: 'ROAS 30 days', cell: (i) => formatRoas(i.getValue()) }),
    col.accessor('roas90', { header: 'ROAS 90 days', cell: (i) => formatRoas(i.getValue()) }),
    col.accessor('newDonors', { header: 'New donors', cell: (i) => i.getValue().toLocaleString() }),
    col.accessor('costPerDonor', { header: 'Cost per donor', cell: (i) => formatRatioMoney(i.getValue()) }),
    col.accessor('newContacts', { header: 'New contacts', cell: (i) => i.getValue().toLocaleString() }),
    col.accessor('cpl', { header: 'CPL', cell: (i) => formatRatioMoney(i.getValue()) }),
    col.accessor('cpm', { header: 'CPM', cell: (i) => formatRatioMoney(i.getValue()) }),
    col.accessor('cpc', { header: 'CPC', cell: (i) => formatRatioMoney(i.getValue()) }),
    col.accessor('ctr', { header: 'CTR', cell: (i) => formatCtr(i.getValue()) }),
    ...(level === 'campaign' ? [] : [col.accessor('campaign', { header: 'Campaign', cell: (i) => i.getValue() ?? '' })]),
    ...(level === 'ad' ? [col.accessor('adGroup', { header: 'Ad group', cell: (i) => i.getValue() ?? '' })] : []),
  ]);
}

const NUMERIC = [
  'spend', 'cpm', 'cpc', 'ctr', 'newContacts', 'cpl', 'newDonors', 'costPerDonor',
  'revenue0', 'roas0', 'roas30', 'roas90', 'revenue365', 'roas365',
];

function last30(today = clientToday()): DateRange {
  return { from: isoDate(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29)), to: isoDate(today) };
}

/** Media: spend and what it brought in, per campaign, ad group or ad over a date range. */
export function MediaPage() {
  const [params, setParams] = useSearchParams();
  const fromParams = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const range = isValidRange(fromParams) ? fromParams : last30();
  const level = (['campaign', 'group', 'ad'].includes(params.get('level') ?? '') ? params.get('level') : 'campaign') as MediaLevel;
  const campaignId = Number(params.get('campaign')) || undefined;
  const [importing, setImporting] = useState(false);
  const [codesFor, setCodesFor] = useState<MediaRow | null>(null);
  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const query = { from: range.from, to: range.to, campaignId };
  const perf = useGetMediaPerformance(
    { ...query, level },
    { query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load the media figures' } } },
  );
  const series = useGetMediaSeries(query, {
    query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load the spend chart' } },
  });
  const campaigns = useListAdCampaignNames({ query: { meta: { errorMessage: 'Could not load the campaigns' } } });

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-end gap-2 mb-3">
        <h1 className="h3 mb-0">Media</h1>
        <Button size="sm" onClick={() => setImporting(true)}>
          Import
        </Button>
      </div>
      <MediaImportDialog show={importing} onClose={() => setImporting(false)} />
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <DateRangePicker value={range} onChange={(r) => set({ from: r.from, to: r.to })} />
        <Form.Group controlId="media-level">
          <Form.Label className="small mb-0">Show</Form.Label>
          <Form.Select size="sm" value={level} onChange={(e) => set({ level: e.target.value })}>
            <option value="campaign">Campaigns</option>
            <option value="group">Ad groups</option>
            <option value="ad">Ads</option>
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="media-campaign">
          <Form.Label className="small mb-0">Campaign</Form.Label>
          <Form.Select size="sm" value={campaignId ?? ''} onChange={(e) => set({ campaign: e.target.value })}>
            <option value="">All campaigns</option>
            {(campaigns.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
      {perf.isPending ? (
        <PageSpinner label="Loading the media figures" />
      ) : perf.isError ? (
        <Alert variant="danger">Could not load the media figures.</Alert>
      ) : (
        <>
          <StatTiles label="Media totals" tiles={mediaTiles(perf.data.total)} />
          <Card className="mb-3">
            <Card.Body>
              <Card.Title as="h2" className="h6">
                Spend and revenue
              </Card.Title>
              {series.data && <EChart label="Spend and revenue per day" option={spendRevenueOption(series.data)} />}
            </Card.Body>
          </Card>
          {perf.data.rows.length === 0 ? (
            <EmptyState>No ad spend in this range. Import a Meta Ads Manager or Google Ads export.</EmptyState>
          ) : (
            <DataTable
      stickyFirst
              label="Media performance" columnChoiceKey="media-performance"
              columns={columnsFor_(level)}
              data={perf.data.rows}
              numeric={NUMERIC}
              onRowClick={level === 'ad' ? (row) => setCodesFor(row) : undefined}
            />
          )}
          {level === 'ad' && perf.data.rows.length > 0 && (
            <p className="small text-body-secondary">Click an ad to set the refcodes and origin codes that tie it to gifts and sign-ups.</p>
          )}
        </>
      )}
      <AdCodesDialog ad={codesFor} onClose={() => setCodesFor(null)} />
    </>
  );
}

import Alert from 'react-bootstrap/Alert';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import ToggleButton from 'react-bootstrap/ToggleButton';
import { useNavigate, useSearchParams } from 'react-router';
import { useListContributionSourceCodeGroups, useListContributionSourceCodes } from '@/api/gen';
import type { SourceCodeGroup, SourceCodeRow } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { DateRangePicker } from '@/components/date-range-picker';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatIsoDate, rangeFromParams, type DateRange } from '@/lib/date-range';
import { formatCount, formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { queryString } from '../utils';

const col = columnsFor<SourceCodeRow>();
const codeColumns = col.columns([
  col.accessor('code', { header: 'Source code' }),
  col.accessor('gross', { header: 'Gross', cell: (info) => formatMoney(info.getValue()) }),
  col.accessor('net', { header: 'Net', cell: (info) => formatMoney(info.getValue()) }),
  col.accessor('gifts', { header: 'Gifts', cell: (info) => formatCount(info.getValue()) }),
  col.accessor('donors', { header: 'Donors', cell: (info) => formatCount(info.getValue()) }),
  col.accessor('averageGift', { header: 'Average gift', cell: (info) => formatMoney(info.getValue()) }),
  col.accessor('firstGift', { header: 'First gift', cell: (info) => (info.getValue() ? formatDate(info.getValue()!) : '') }),
  col.accessor('lastGift', { header: 'Last gift', cell: (info) => (info.getValue() ? formatDate(info.getValue()!) : '') }),
  col.display({
    id: 'tiedTo',
    header: 'Tied to',
    cell: (info) => {
      const row = info.row.original;
      if (row.mailingName) return `Mailing: ${row.mailingName}`;
      if (row.formId) return `Form: ${row.formName || 'Untitled'}`;
      return '';
    },
  }),
  col.accessor('giftsBeforeSend', {
    header: 'Before send',
    cell: (info) => (info.row.original.mailingId ? formatCount(info.getValue()) : ''),
  }),
  col.accessor('channel', {
    header: 'Channel',
    cell: (info) => (info.row.original.parsed ? (info.getValue() ?? '') : 'unparsed'),
  }),
  col.accessor('codeDate', { header: 'Date', cell: (info) => (info.getValue() ? formatIsoDate(info.getValue()!) : '') }),
  col.accessor('campaign', { header: 'Campaign', cell: (info) => info.getValue() ?? '' }),
  col.accessor('variant', { header: 'Variant', cell: (info) => info.getValue() ?? '' }),
]);
const CODE_NUMERIC = ['gifts', 'donors', 'gross', 'net', 'averageGift', 'giftsBeforeSend'];

const groupCol = columnsFor<SourceCodeGroup>();
const groupColumns = groupCol.columns([
  groupCol.accessor('key', { header: 'Group' }),
  groupCol.accessor('gross', { header: 'Gross', cell: (info) => formatMoney(info.getValue()) }),
  groupCol.accessor('net', { header: 'Net', cell: (info) => formatMoney(info.getValue()) }),
  groupCol.accessor('gifts', { header: 'Gifts', cell: (info) => formatCount(info.getValue()) }),
  groupCol.accessor('donors', { header: 'Donors', cell: (info) => formatCount(info.getValue()) }),
  groupCol.accessor('codes', { header: 'Codes', cell: (info) => formatCount(info.getValue()) }),
  groupCol.accessor('averageGift', { header: 'Average gift', cell: (info) => formatMoney(info.getValue()) }),
]);

type Grouping = 'code' | 'channel' | 'campaign';

function Groups({ by, range }: { by: 'channel' | 'campaign'; range: DateRange }) {
  const groups = useListContributionSourceCodeGroups(
    { by, ...range },
    { query: { meta: { errorMessage: 'Could not load source codes' } } },
  );
  if (groups.isPending) return <PageSpinner label="Loading source codes" />;
  if (groups.isError) return <Alert variant="danger">Could not load source codes.</Alert>;
  if (groups.data.length === 0) return <EmptyState>No gifts with a source code in this range.</EmptyState>;
  return (
    <DataTable
      stickyFirst
      label={`Source codes by ${by}`}
      columns={groupColumns}
      data={groups.data}
      numeric={['codes', 'gifts', 'donors', 'gross', 'net', 'averageGift']}
    />
  );
}

/** Attribution › Contribution Source Codes: one row per code, or grouped by channel or campaign. */
export function SourceCodesPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const range = rangeFromParams(params);
  const grouping = (['channel', 'campaign'].includes(params.get('group') ?? '') ? params.get('group') : 'code') as Grouping;
  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) out.delete(key);
        else out.set(key, value);
      }
      return out;
    });
  const codes = useListContributionSourceCodes(range, {
    query: { enabled: grouping === 'code', meta: { errorMessage: 'Could not load source codes' } },
  });
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">Contribution Source Codes</h1>
        <DateRangePicker value={range} onChange={(r) => update({ from: r.from, to: r.to })} />
      </div>
      <ButtonGroup className="mb-3" aria-label="Group by">
        {(
          [
            ['code', 'Each code'],
            ['channel', 'By channel'],
            ['campaign', 'By campaign'],
          ] as const
        ).map(([value, label]) => (
          <ToggleButton
            key={value}
            id={`group-${value}`}
            type="radio"
            size="sm"
            variant="outline-secondary"
            name="group"
            value={value}
            checked={grouping === value}
            onChange={() => update({ group: value === 'code' ? null : value })}
          >
            {label}
          </ToggleButton>
        ))}
      </ButtonGroup>
      {grouping !== 'code' ? (
        <Groups by={grouping} range={range} />
      ) : codes.isPending ? (
        <PageSpinner label="Loading source codes" />
      ) : codes.isError ? (
        <Alert variant="danger">Could not load source codes.</Alert>
      ) : codes.data.items.length === 0 ? (
        <EmptyState>No source codes yet.</EmptyState>
      ) : (
        <>
          <p className="text-body-secondary small" data-testid="gifts-before-send">
            Refcode used before its mailing was sent: {formatCount(codes.data.giftsBeforeSend)}{' '}
            {codes.data.giftsBeforeSend === 1 ? 'gift' : 'gifts'} in this range (column “Before send”). They count
            for their code, not for the mailing: check where links with the code were shared early.
          </p>
          <DataTable
      stickyFirst
            label="Contribution source codes" columnChoiceKey="source-codes"
            columns={codeColumns}
            data={codes.data.items}
            numeric={CODE_NUMERIC}
            onRowClick={(row) =>
              void navigate(`/revenue/contributions?${queryString({ ...range, sourceCodeId: row.id })}`)
            }
          />
        </>
      )}
    </>
  );
}

import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { useNavigate, useSearchParams } from 'react-router';
import { useListOriginCodeAcquisition, useListOriginCodeValue } from '@/api/gen';
import type { OriginCodeValue } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { columnsFor, DataTable } from '@/components/data-table';
import { DateRangePicker } from '@/components/date-range-picker';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { rangeFromParams, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { formatMoney, formatPercent } from '@/lib/money';
import { acquisitionOption } from '../utils';

const col = columnsFor<OriginCodeValue>();
const valueColumns = col.columns([
  col.accessor('name', { header: 'Origin code' }),
  col.accessor('acquired', { header: 'Acquired', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('stillSubscribed', { header: 'Still subscribed', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('donors', { header: 'Became donors', cell: (i) => formatCount(i.getValue()) }),
  col.accessor('donorShare', { header: 'Donors %', cell: (i) => formatPercent(i.getValue()) }),
  col.accessor('revenue30', { header: 'Revenue 30 days', cell: (i) => formatMoney(i.getValue()) }),
  col.accessor('revenue90', { header: 'Revenue 90 days', cell: (i) => formatMoney(i.getValue()) }),
  col.accessor('revenue365', { header: 'Revenue 365 days', cell: (i) => formatMoney(i.getValue()) }),
  col.accessor('revenueAll', { header: 'Revenue, all', cell: (i) => formatMoney(i.getValue()) }),
  col.accessor('revenuePerContact', { header: 'Per contact', cell: (i) => formatMoney(i.getValue()) }),
]);
const NUMERIC = [
  'acquired',
  'stillSubscribed',
  'donors',
  'donorShare',
  'revenue30',
  'revenue90',
  'revenue365',
  'revenueAll',
  'revenuePerContact',
];

/** Contact Search narrowed to the contacts an origin code brought in a range. */
export const originCodeContactsLink = (id: number, name: string, range: DateRange): string =>
  `/contacts?${new URLSearchParams({ originCodeId: String(id), originCode: name, createdFrom: range.from, createdTo: range.to })}`;

/** What the contacts each origin code brought in a date range are worth, and a weekly acquisition chart. */
export function OriginCodeValuePanel() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const range = rangeFromParams(params);
  const value = useListOriginCodeValue(range, { query: { meta: { errorMessage: 'Could not load origin code value' } } });
  const weeks = useListOriginCodeAcquisition(range, {
    query: { meta: { errorMessage: 'Could not load acquisitions' } },
  });
  return (
    <Card className="mb-3">
      <Card.Header className="d-flex flex-wrap align-items-end gap-2">
        <span className="fw-semibold me-auto">Value of the contacts acquired</span>
        <DateRangePicker
          value={range}
          onChange={(r) =>
            setParams((current) => {
              const out = new URLSearchParams(current);
              out.set('from', r.from);
              out.set('to', r.to);
              return out;
            })
          }
        />
      </Card.Header>
      <Card.Body>
        {weeks.isPending ? (
          <PageSpinner label="Loading acquisitions" />
        ) : weeks.isError ? (
          <Alert variant="danger">Could not load acquisitions.</Alert>
        ) : (
          <EChart label="Contacts acquired per week by origin code" option={acquisitionOption(weeks.data)} height={260} />
        )}
        {value.isPending ? (
          <PageSpinner label="Loading origin code value" />
        ) : value.isError ? (
          <Alert variant="danger">Could not load origin code value.</Alert>
        ) : value.data.items.length === 0 ? (
          <EmptyState>No contacts were acquired in this range.</EmptyState>
        ) : (
          <DataTable
      stickyFirst
            label="Origin code value" columnChoiceKey="origin-code-value"
            columns={valueColumns}
            data={value.data.items}
            numeric={NUMERIC}
            // The row counts the contacts with this origin code created in the range: the contacts page shows them.
            onRowClick={(row) => void navigate(originCodeContactsLink(row.id, row.name, range))}
          />
        )}
      </Card.Body>
    </Card>
  );
}

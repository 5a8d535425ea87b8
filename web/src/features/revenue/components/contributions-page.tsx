import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import {
  useGetContributionBreakdowns,
  useGetContributionSeries,
  useGetContributionSummary,
  useListContributionSourceCodes,
  useListContributions,
} from '@/api/gen';
import type { BreakdownRow, Gift, GiftSort } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { columnsFor, DataTable, type SortState } from '@/components/data-table';
import { DateRangePicker } from '@/components/date-range-picker';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { rangeFromParams, type DateRange } from '@/lib/date-range';
import { formatCount, formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { notifyError } from '@/lib/notifications';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { downloadFile } from '@/lib/download';
import { dailyRevenueOption, queryString, summaryTiles } from '../utils';

export const GIFT_PAGE_SIZE = 25;

const col = columnsFor<Gift>();
const giftColumns = col.columns([
  col.accessor('paidAt', { header: 'Paid at', cell: (info) => formatDateTime(info.getValue()) }),
  col.accessor('amount', { header: 'Amount', cell: (info) => formatMoney(info.getValue()) }),
  col.accessor('refcode', { header: 'Refcode', cell: (info) => info.getValue() ?? '' }),
  col.accessor('mailingName', { header: 'Mailing', cell: (info) => info.getValue() ?? '' }),
  col.accessor('email', { header: 'Email', cell: (info) => info.getValue() ?? '' }),
  col.accessor('recurring', { header: 'Recurring', cell: (info) => (info.getValue() ? 'Yes' : 'No') }),
  col.accessor('refunded', { header: 'Refunded', cell: (info) => (info.getValue() ? 'Yes' : 'No') }),
  col.accessor('fundraisingPage', { header: 'Page', cell: (info) => info.getValue() ?? '' }),
]);

/** Column ids the server sorts by, and the API's name for each. */
const SORTS: Record<string, GiftSort> = {
  paidAt: 'paidAt',
  amount: 'amount',
  refcode: 'refcode',
  fundraisingPage: 'fundraisingPage',
  email: 'email',
};

type Choice = '' | 'true' | 'false';

function YesNoFilter({ id, label, value, onChange }: { id: string; label: string; value: Choice; onChange: (c: Choice) => void }) {
  return (
    <Form.Group controlId={id}>
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Select size="sm" value={value} onChange={(e) => onChange(e.target.value as Choice)}>
        <option value="">Any</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </Form.Select>
    </Form.Group>
  );
}

/** The filters that narrow the whole page, read from and written to its address. */
export interface PageFilters {
  sourceCodeId?: number;
  refunded?: boolean;
  recurring?: boolean;
}

const boolParam = (value: string | null): boolean | undefined =>
  value === 'true' ? true : value === 'false' ? false : undefined;
const asChoice = (value: boolean | undefined): Choice => (value === undefined ? '' : value ? 'true' : 'false');

export function pageFiltersFromParams(params: URLSearchParams): PageFilters {
  const code = params.get('sourceCodeId');
  return {
    sourceCodeId: code && /^\d+$/.test(code) ? Number(code) : undefined,
    refunded: boolParam(params.get('refunded')),
    recurring: boolParam(params.get('recurring')),
  };
}

/** The server-paginated, sortable and searchable gifts of the range and page filters, with CSV and XLSX downloads. */
function GiftTable({ range, pageFilters }: { range: DateRange; pageFilters: PageFilters }) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), 300);
  const [sort, setSort] = useState<SortState>({ id: 'paidAt', desc: true });
  const filters = {
    from: range.from,
    to: range.to,
    ...pageFilters,
    q: q || undefined,
  };
  // The page belongs to the filters it was chosen for; new filters start at page 1.
  const key = JSON.stringify({ filters, sort });
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  const gifts = useListContributions(
    { ...filters, sort: SORTS[sort.id], order: sort.desc ? 'desc' : 'asc', page, pageSize: GIFT_PAGE_SIZE },
    { query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load contributions' } } },
  );
  const [downloading, setDownloading] = useState(false);
  const download = async (kind: 'csv' | 'xlsx') => {
    setDownloading(true);
    try {
      await downloadFile(
        `/api/contributions/export/${kind}?${queryString(filters)}`,
        `contributions-${range.from}-${range.to}.${kind}`,
      );
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Card className="mb-3">
      <Card.Header className="d-flex flex-wrap align-items-center gap-2">
        <span className="fw-semibold me-auto">Gifts</span>
        <Button size="sm" variant="outline-primary" disabled={downloading} onClick={() => void download('csv')}>
          Download CSV
        </Button>
        <Button size="sm" variant="outline-primary" disabled={downloading} onClick={() => void download('xlsx')}>
          Download XLSX
        </Button>
      </Card.Header>
      <Card.Body>
        <div className="d-flex flex-wrap align-items-end gap-2 mb-2">
          <Form.Group controlId="gift-search">
            <Form.Label className="small mb-0">Search</Form.Label>
            <Form.Control
              size="sm"
              type="search"
              placeholder="Email, refcode, page or name"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </Form.Group>
        </div>
        {gifts.isPending ? (
          <PageSpinner label="Loading contributions" />
        ) : gifts.isError ? (
          <Alert variant="danger">Could not load contributions.</Alert>
        ) : gifts.data.items.length === 0 ? (
          <EmptyState>No contributions match.</EmptyState>
        ) : (
          <DataTable
      stickyFirst
            label="Contributions" columnChoiceKey="contributions"
            columns={giftColumns}
            data={gifts.data.items}
            numeric={['amount']}
            sortable={Object.keys(SORTS)}
            sort={sort}
            onSortChange={setSort}
            paging={{
              page,
              pageSize: GIFT_PAGE_SIZE,
              total: gifts.data.total,
              onPageChange: (next) => setPaging({ key, page: next }),
            }}
          />
        )}
      </Card.Body>
    </Card>
  );
}

const breakdownCol = columnsFor<BreakdownRow>();
const breakdownColumns = (title: string) =>
  breakdownCol.columns([
    breakdownCol.accessor('key', { header: title }),
    breakdownCol.accessor('gifts', { header: 'Gifts', cell: (info) => formatCount(info.getValue()) }),
    breakdownCol.accessor('donors', { header: 'Donors', cell: (info) => formatCount(info.getValue()) }),
    breakdownCol.accessor('gross', { header: 'Gross', cell: (info) => formatMoney(info.getValue()) }),
    breakdownCol.accessor('net', { header: 'Net', cell: (info) => formatMoney(info.getValue()) }),
  ]);

function BreakdownTable({ title, rows }: { title: string; rows: BreakdownRow[] }) {
  return (
    <Card className="h-100">
      <Card.Header className="fw-semibold">{title}</Card.Header>
      {rows.length === 0 ? (
        <Card.Body className="text-body-secondary">No gifts in this range.</Card.Body>
      ) : (
        <DataTable
          label={`By ${title.toLowerCase()}`}
          columns={breakdownColumns(title)}
          data={rows}
          numeric={['gifts', 'donors', 'gross', 'net']}
          cellClassName={{ key: 'text-break' }}
          striped={false}
          className="mb-0"
        />
      )}
    </Card>
  );
}

/** The name of the filtered source code: from the filtered breakdown when it has gifts, else from the code list. */
function useCodeName(range: DateRange, id: number | undefined, fromBreakdowns: BreakdownRow[] | undefined) {
  const found = id === undefined ? undefined : fromBreakdowns?.find((row) => row.sourceCodeId === id)?.key;
  const codes = useListContributionSourceCodes(range, {
    query: { enabled: id !== undefined && fromBreakdowns !== undefined && found === undefined },
  });
  if (id === undefined) return undefined;
  return found ?? codes.data?.items.find((row) => row.id === id)?.code ?? `#${id}`;
}

/** Revenue › Contributions: totals, the daily chart, breakdowns and the gifts of a date range and filters. */
export function ContributionsPage({ importButton }: { importButton?: React.ReactNode }) {
  const [params, setParams] = useSearchParams();
  const range = rangeFromParams(params);
  const pageFilters = pageFiltersFromParams(params);
  const setParam = (changes: Record<string, string | undefined>) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === '') out.delete(key);
        else out.set(key, value);
      }
      return out;
    });
  const setRange = (next: DateRange) => setParam({ from: next.from, to: next.to });
  const query = { ...range, ...pageFilters };
  const summary = useGetContributionSummary(query, { query: { meta: { errorMessage: 'Could not load totals' } } });
  const series = useGetContributionSeries(query, { query: { meta: { errorMessage: 'Could not load the chart' } } });
  const breakdowns = useGetContributionBreakdowns(query, {
    query: { meta: { errorMessage: 'Could not load breakdowns' } },
  });
  const codeName = useCodeName(range, pageFilters.sourceCodeId, breakdowns.data?.sourceCodes);
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">Contributions</h1>
        <DateRangePicker value={range} onChange={setRange} />
        {importButton}
      </div>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3" aria-label="Filters" role="group">
        <YesNoFilter
          id="gift-refunded"
          label="Refunded"
          value={asChoice(pageFilters.refunded)}
          onChange={(c) => setParam({ refunded: c })}
        />
        <YesNoFilter
          id="gift-recurring"
          label="Recurring"
          value={asChoice(pageFilters.recurring)}
          onChange={(c) => setParam({ recurring: c })}
        />
        {pageFilters.sourceCodeId !== undefined && (
          <Button
            size="sm"
            variant="outline-secondary"
            data-testid="source-code-chip"
            aria-label={`Source code ${codeName ?? ''}: clear this filter`}
            onClick={() => setParam({ sourceCodeId: undefined })}
          >
            Source code: {codeName} ×
          </Button>
        )}
      </div>
      {summary.isPending ? (
        <PageSpinner label="Loading totals" />
      ) : summary.isError ? (
        <Alert variant="danger">Could not load totals.</Alert>
      ) : (
        <StatTiles label="Totals" tiles={summaryTiles(summary.data)} />
      )}
      <Card className="mb-3">
        <Card.Header className="fw-semibold">Daily net revenue, with the previous period</Card.Header>
        <Card.Body>
          {series.isPending ? (
            <PageSpinner label="Loading the chart" />
          ) : series.isError ? (
            <Alert variant="danger">Could not load the chart.</Alert>
          ) : (
            <EChart label="Daily net revenue and the previous period" option={dailyRevenueOption(series.data.days)} />
          )}
        </Card.Body>
      </Card>
      {breakdowns.isPending ? (
        <PageSpinner label="Loading breakdowns" />
      ) : breakdowns.isError ? (
        <Alert variant="danger">Could not load breakdowns.</Alert>
      ) : (
        <Row xs={1} lg={2} className="g-3 mb-3">
          <Col>
            <BreakdownTable title="Channel" rows={breakdowns.data.channels} />
          </Col>
          <Col>
            <BreakdownTable title="Amount band" rows={breakdowns.data.bands} />
          </Col>
          <Col>
            <BreakdownTable title="Source code" rows={breakdowns.data.sourceCodes} />
          </Col>
          <Col>
            <BreakdownTable title="Fundraising page" rows={breakdowns.data.pages} />
          </Col>
        </Row>
      )}
      <GiftTable range={range} pageFilters={pageFilters} />
    </>
  );
}

import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link, useSearchParams } from 'react-router';
import { useListMailings } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { MAILING_REVENUE_COLUMNS, MAILING_REVENUE_IDS, hasMoney } from './mailing-revenue';
import { formatCount, formatDateTime } from '@/lib/format';
import type { Mailing } from '@/api/gen/model';
import { mailingStatus, openRate, type MailingStatus } from '../utils';
import { columnsFor, DataTable } from '@/components/data-table';

const STATUS_BG: Record<MailingStatus, string> = { DRAFT: 'secondary', CONFIRMED: 'primary', SENT: 'success' };

const STATUS_WORDS: Record<string, MailingStatus> = { draft: 'DRAFT', confirmed: 'CONFIRMED', sent: 'SENT' };

const col = columnsFor<Mailing>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (info) => <Link to={`/crm-mailing-detail/${info.row.original.id}`}>{info.getValue() || 'Untitled'}</Link>,
  }),
  col.accessor('subjectLine', { header: 'Subject' }),
  col.display({
    id: 'status',
    header: 'Status',
    cell: ({ row }) => {
      const status = mailingStatus(row.original);
      return <Badge bg={STATUS_BG[status]}>{status}</Badge>;
    },
  }),
  col.accessor('senderName', { header: 'Sender', cell: (info) => info.getValue() ?? '' }),
  col.accessor('sendTime', {
    header: 'Send Time',
    cell: (info) => {
      const at = info.getValue();
      return at ? formatDateTime(at) : '';
    },
  }),
  col.display({
    id: 'openRate',
    header: 'Open Rate',
    cell: ({ row: { original: m } }) => openRate(m.openCount, m.recipCount),
  }),
  col.accessor('recipCount', { header: 'Recipients', cell: (info) => formatCount(info.getValue()) }),
]);

/**
 * The filters the dashboard links with: `status` (draft, confirmed or sent) and `within` (days: a confirmed
 * mailing whose send time is from now to that many days ahead, as the "Upcoming sends" tile counts).
 */
export function mailingFilter(params: URLSearchParams, now: Date = new Date()) {
  const status = STATUS_WORDS[params.get('status') ?? ''];
  const within = /^\d{1,3}$/.test(params.get('within') ?? '') ? Number(params.get('within')) : undefined;
  const end = within === undefined ? undefined : now.getTime() + within * 86_400_000;
  return {
    status,
    within,
    keep: (mailing: Mailing) =>
      (!status || mailingStatus(mailing) === status) &&
      (end === undefined ||
        (mailingStatus(mailing) === 'CONFIRMED' &&
          !!mailing.sendTime &&
          Date.parse(mailing.sendTime) >= now.getTime() &&
          Date.parse(mailing.sendTime) < end)),
  };
}

/** The client's mailings: name (to the editor), subject, status, sender, send time, open rate and recipients. */
export function CrmMailingsTable() {
  const [params, setParams] = useSearchParams();
  const { data: all, isPending, isError } = useListMailings({
    query: { meta: { errorMessage: 'Could not load mailings' } },
  });
  if (isPending) return <PageSpinner label="Loading mailings" />;
  if (isError) return <Alert variant="danger">Could not load mailings.</Alert>;
  if (all.length === 0) return <EmptyState>No mailings yet.</EmptyState>;
  const filter = mailingFilter(params);
  const data = all.filter(filter.keep);
  const money = data.some(hasMoney);
  const filtered = filter.status !== undefined || filter.within !== undefined;
  return (
    <>
      {filtered && (
        <div className="d-flex flex-wrap gap-2 mb-2" role="group" aria-label="Filters">
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() =>
              setParams((current) => {
                const out = new URLSearchParams(current);
                out.delete('status');
                out.delete('within');
                return out;
              })
            }
          >
            {filter.within !== undefined
              ? `Confirmed, sending in the next ${filter.within} days`
              : `Status: ${filter.status}`}{' '}
            ×
          </Button>
        </div>
      )}
      {data.length === 0 && <EmptyState>No mailings match.</EmptyState>}
      <DataTable
        label="Mailings"
        columns={money ? [...columns, ...MAILING_REVENUE_COLUMNS] : columns}
        data={data}
        numeric={['openRate', 'recipCount', ...(money ? MAILING_REVENUE_IDS : [])]}
        hover
        small={false}
      />
    </>
  );
}

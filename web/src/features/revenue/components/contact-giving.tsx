import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { useGetContactGiving } from '@/api/gen';
import type { Gift } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDate, formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';

const col = columnsFor<Gift>();
const historyColumns = col.columns([
  col.accessor('paidAt', { header: 'Date', cell: (i) => formatDateTime(i.getValue()) }),
  col.accessor('amount', { header: 'Amount', cell: (i) => formatMoney(i.getValue()) }),
  col.accessor('refcode', { header: 'Refcode', cell: (i) => i.getValue() ?? '' }),
  col.accessor('fundraisingPage', { header: 'Page', cell: (i) => i.getValue() ?? '' }),
  col.accessor('recurring', { header: 'Recurring', cell: (i) => (i.getValue() ? 'Yes' : 'No') }),
  col.accessor('refunded', { header: 'Refunded', cell: (i) => (i.getValue() ? 'Yes' : 'No') }),
  col.accessor('mailingName', { header: 'Mailing', cell: (i) => i.getValue() ?? '' }),
]);

/** A contact's giving summary (first and last gift, HPC, MRC, total, count, sustainer) and gift history. */
export function ContactGiving({ contactId }: { contactId: number }) {
  const giving = useGetContactGiving(contactId, { query: { meta: { errorMessage: 'Could not load giving' } } });
  // A missing contact is said once, by the contact's own section.
  if (giving.error?.status === 404) return null;
  if (giving.isPending) return <PageSpinner label="Loading giving" />;
  if (giving.isError) return <Alert variant="danger">Could not load giving.</Alert>;
  const { summary, gifts } = giving.data;
  const date = (iso?: string | null) => (iso ? formatDate(iso) : '—');
  return (
    <Card className="my-3">
      <Card.Header className="d-flex align-items-center gap-2">
        <span className="fw-semibold me-auto">Giving</span>
        <Badge bg={summary.sustainer ? 'success' : 'secondary'}>{summary.category}</Badge>
      </Card.Header>
      <Card.Body>
        <dl className="row mb-3" aria-label="Giving summary">
          <dt className="col-sm-3">First gift</dt>
          <dd className="col-sm-3">{date(summary.firstGift)}</dd>
          <dt className="col-sm-3">Last gift</dt>
          <dd className="col-sm-3">{date(summary.lastGift)}</dd>
          <dt className="col-sm-3">HPC</dt>
          <dd className="col-sm-3">{formatMoney(summary.hpc)}</dd>
          <dt className="col-sm-3">MRC</dt>
          <dd className="col-sm-3">{formatMoney(summary.mrc)}</dd>
          <dt className="col-sm-3">Total</dt>
          <dd className="col-sm-3">{formatMoney(summary.total)}</dd>
          <dt className="col-sm-3">Gifts</dt>
          <dd className="col-sm-3">{formatCount(summary.count)}</dd>
          <dt className="col-sm-3">Sustainer</dt>
          <dd className="col-sm-3">{summary.sustainer ? 'Yes' : 'No'}</dd>
        </dl>
        {gifts.length === 0 ? (
          <p className="text-body-secondary mb-0">No gifts yet.</p>
        ) : (
          <DataTable stickyFirst label="Gift history" columns={historyColumns} data={gifts} numeric={['amount']} />
        )}
      </Card.Body>
    </Card>
  );
}

import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router';
import { useListCrmForms } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { conversionRate, formatCount, formDisplayName, formStatus } from '../utils';
import { columnsFor, DataTable } from '@/components/data-table';
import type { Form } from '@/api/gen/model';

const col = columnsFor<Form>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (info) => <Link to={`/crm-form-detail/${info.row.original.id}`}>{formDisplayName(info.getValue())}</Link>,
  }),
  col.display({
    id: 'status',
    header: 'Status',
    cell: ({ row: { original: form } }) => (
      <Badge bg={form.enabled ? 'success' : 'secondary'}>{formStatus(form)}</Badge>
    ),
  }),
  col.accessor('submissions', { header: 'Submissions', cell: (info) => formatCount(info.getValue()) }),
  col.display({
    id: 'conversion',
    header: 'Conversion Rate',
    cell: ({ row: { original: form } }) => conversionRate(form.submissions, form.viewCount),
  }),
  col.accessor('originCodeName', { header: 'Origin Code', cell: (info) => info.getValue() ?? '' }),
]);

/** The client's forms: name (to the editor), status, submissions, conversion rate and origin code. */
export function CrmFormsTable() {
  const { data, isPending, isError } = useListCrmForms({
    query: { meta: { errorMessage: 'Could not load forms' } },
  });
  if (isPending) return <PageSpinner label="Loading forms" />;
  if (isError) return <Alert variant="danger">Could not load forms.</Alert>;
  if (data.length === 0) return <EmptyState>No forms yet.</EmptyState>;
  return (
    <DataTable label="Forms" columns={columns} data={data} numeric={['submissions', 'conversion']} hover small={false} />
  );
}

import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { useListCrmLists } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDate } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';
import type { CrmList } from '@/api/gen/model';

const col = columnsFor<CrmList>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (info) => <Link to={`/crm-list-detail/${info.row.original.id}`}>{info.getValue()}</Link>,
  }),
  col.accessor('created', { header: 'Created', cell: (info) => formatDate(info.getValue()) }),
  col.accessor('count', { header: 'Count', cell: (info) => formatCount(info.getValue()) }),
]);

/** The client's CRM lists: name (to the detail page), created date and count. */
export function CrmListsTable() {
  const { data, isPending, isError } = useListCrmLists({
    query: { meta: { errorMessage: 'Could not load lists' } },
  });
  if (isPending) return <PageSpinner label="Loading lists" />;
  if (isError) return <Alert variant="danger">Could not load lists.</Alert>;
  if (data.length === 0) return <EmptyState>No lists yet.</EmptyState>;
  return <DataTable label="Lists" columns={columns} data={data} numeric={['count']} hover small={false} />;
}

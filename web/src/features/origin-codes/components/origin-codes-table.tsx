import Alert from 'react-bootstrap/Alert';
import { useListOriginCodes } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDate } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';
import type { OriginCodeCount } from '@/api/gen/model';

const col = columnsFor<OriginCodeCount>();
const columns = col.columns([
  col.accessor('name', { header: 'Name' }),
  col.accessor('contactCount', { header: 'Contacts', cell: (info) => formatCount(info.getValue()) }),
  col.accessor('created', { header: 'Created', cell: (info) => formatDate(info.getValue()) }),
]);

/** The client's contact origin codes: name, how many contacts carry each, and when it was created. */
export function OriginCodesTable() {
  const { data, isPending, isError } = useListOriginCodes({
    query: { meta: { errorMessage: 'Could not load origin codes' } },
  });
  if (isPending) return <PageSpinner label="Loading origin codes" />;
  if (isError) return <Alert variant="danger">Could not load origin codes.</Alert>;
  if (data.length === 0) return <EmptyState>No origin codes yet.</EmptyState>;
  return (
    <DataTable label="Contact origin codes" columns={columns} data={data} numeric={['contactCount']} hover small={false} />
  );
}

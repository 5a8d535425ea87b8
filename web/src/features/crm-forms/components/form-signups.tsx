import { useListExternalSignups } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '../utils';
import { columnsFor, DataTable } from '@/components/data-table';
import type { ExternalSignup } from '@/api/gen/model';

const col = columnsFor<ExternalSignup>();
const columns = col.columns([
  col.accessor('email', { header: 'Email' }),
  col.accessor('originCodeName', { header: 'Origin Code', cell: (info) => info.getValue() ?? '' }),
  col.accessor('referrer', { header: 'Referrer', cell: (info) => info.getValue() ?? '' }),
  col.accessor('created', { header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
]);

/** The form's most recent signups (up to 20): e-mail, origin code, referrer and when. */
export function FormSignups({ formId }: { formId: number }) {
  const signups = useListExternalSignups(
    { filter: JSON.stringify({ formId, limit: 20 }) },
    { query: { meta: { errorMessage: 'Could not load signups' } } },
  );
  return (
    <section className="mt-4" aria-labelledby="form-signups-title">
      <h2 id="form-signups-title" className="h5">
        Recent signups
      </h2>
      {signups.isPending ? (
        <PageSpinner label="Loading signups" />
      ) : signups.isError ? null : signups.data.length === 0 ? (
        <EmptyState>No signups yet.</EmptyState>
      ) : (
        <DataTable
          label="Recent signups"
          columns={columns}
          data={signups.data}
          cellClassName={{ referrer: 'text-break' }}
          hover
        />
      )}
    </section>
  );
}

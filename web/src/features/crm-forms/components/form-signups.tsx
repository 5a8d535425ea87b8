import Table from 'react-bootstrap/Table';
import { useListExternalSignups } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '../utils';

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
        <Table striped hover responsive size="sm" aria-label="Recent signups">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Origin Code</th>
              <th scope="col">Referrer</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {signups.data.map((signup) => (
              <tr key={signup.id}>
                <td>{signup.email}</td>
                <td>{signup.originCodeName ?? ''}</td>
                <td className="text-break">{signup.referrer ?? ''}</td>
                <td>{formatDateTime(signup.created)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

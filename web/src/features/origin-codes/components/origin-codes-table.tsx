import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { useListOriginCodes } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDate } from '@/lib/format';

/** The client's contact origin codes: name, how many contacts carry each, and when it was created. */
export function OriginCodesTable() {
  const { data, isPending, isError } = useListOriginCodes({
    query: { meta: { errorMessage: 'Could not load origin codes' } },
  });
  if (isPending) return <PageSpinner label="Loading origin codes" />;
  if (isError) return <Alert variant="danger">Could not load origin codes.</Alert>;
  if (data.length === 0) return <EmptyState>No origin codes yet.</EmptyState>;
  return (
    <Table striped hover responsive aria-label="Contact origin codes">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="text-end">
            Contacts
          </th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {data.map((code) => (
          <tr key={code.id}>
            <td>{code.name}</td>
            <td className="text-end">{formatCount(code.contactCount)}</td>
            <td>{formatDate(code.created)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useListCrmLists } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDate } from '@/lib/format';

/** The client's CRM lists: name (to the detail page), created date and count. */
export function CrmListsTable() {
  const { data, isPending, isError } = useListCrmLists({
    query: { meta: { errorMessage: 'Could not load lists' } },
  });
  if (isPending) return <PageSpinner label="Loading lists" />;
  if (isError) return <Alert variant="danger">Could not load lists.</Alert>;
  if (data.length === 0) return <EmptyState>No lists yet.</EmptyState>;
  return (
    <Table striped hover responsive aria-label="Lists">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Created</th>
          <th scope="col" className="text-end">
            Count
          </th>
        </tr>
      </thead>
      <tbody>
        {data.map((list) => (
          <tr key={list.id}>
            <td>
              <Link to={`/crm-list-detail/${list.id}`}>{list.name}</Link>
            </td>
            <td>{formatDate(list.created)}</td>
            <td className="text-end">{formatCount(list.count)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

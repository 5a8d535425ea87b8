import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useListCrmForms } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { conversionRate, formatCount, formDisplayName, formStatus } from '../utils';

/** The client's forms: name (to the editor), status, submissions, conversion rate and origin code. */
export function CrmFormsTable() {
  const { data, isPending, isError } = useListCrmForms({
    query: { meta: { errorMessage: 'Could not load forms' } },
  });
  if (isPending) return <PageSpinner label="Loading forms" />;
  if (isError) return <Alert variant="danger">Could not load forms.</Alert>;
  if (data.length === 0) return <EmptyState>No forms yet.</EmptyState>;
  return (
    <Table striped hover responsive aria-label="Forms">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Status</th>
          <th scope="col" className="text-end">
            Submissions
          </th>
          <th scope="col" className="text-end">
            Conversion Rate
          </th>
          <th scope="col">Origin Code</th>
        </tr>
      </thead>
      <tbody>
        {data.map((form) => (
          <tr key={form.id}>
            <td>
              <Link to={`/crm-form-detail/${form.id}`}>{formDisplayName(form.name)}</Link>
            </td>
            <td>
              <Badge bg={form.enabled ? 'success' : 'secondary'}>{formStatus(form)}</Badge>
            </td>
            <td className="text-end">{formatCount(form.submissions)}</td>
            <td className="text-end">{conversionRate(form.submissions, form.viewCount)}</td>
            <td>{form.originCodeName ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link, useNavigate } from 'react-router';
import { useListMailingTemplates } from '@/api/gen';
import { Breadcrumbs, type Crumb } from '@/components/breadcrumbs';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';

export const TEMPLATES_CRUMBS: Crumb[] = [{ label: 'CRM' }, { label: 'Templates', to: '/crm-mailing-templates' }];

/** The client's mailing templates: name (to the editor) and created. */
export function CrmMailingTemplatesTable() {
  const { data, isPending, isError } = useListMailingTemplates({
    query: { meta: { errorMessage: 'Could not load templates' } },
  });
  if (isPending) return <PageSpinner label="Loading templates" />;
  if (isError) return <Alert variant="danger">Could not load templates.</Alert>;
  if (data.length === 0) return <EmptyState>No templates yet.</EmptyState>;
  return (
    <Table striped hover responsive aria-label="Templates">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {data.map((template) => (
          <tr key={template.id}>
            <td>
              <Link to={`/crm-mailing-template-detail/${template.id}`}>{template.name || 'Untitled'}</Link>
            </td>
            <td>{formatDateTime(template.created)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function CrmMailingTemplatesPage() {
  const navigate = useNavigate();
  return (
    <>
      <Breadcrumbs crumbs={TEMPLATES_CRUMBS} />
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Templates</h1>
        <Button onClick={() => void navigate('/crm-mailing-template-add')}>Create Template</Button>
      </div>
      <CrmMailingTemplatesTable />
    </>
  );
}

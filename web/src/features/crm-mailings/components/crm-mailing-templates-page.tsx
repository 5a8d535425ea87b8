import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { useListMailingTemplates } from '@/api/gen';
import { Breadcrumbs, type Crumb } from '@/components/breadcrumbs';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { columnsFor, DataTable } from '@/components/data-table';
import type { MailingTemplate } from '@/api/gen/model';

export const TEMPLATES_CRUMBS: Crumb[] = [{ label: 'CRM' }, { label: 'Templates', to: '/crm-mailing-templates' }];

const col = columnsFor<MailingTemplate>();
const columns = col.columns([
  col.accessor('name', {
    header: 'Name',
    cell: (info) => (
      <Link to={`/crm-mailing-template-detail/${info.row.original.id}`}>{info.getValue() || 'Untitled'}</Link>
    ),
  }),
  col.accessor('created', { header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
]);

/** The client's mailing templates: name (to the editor) and created. */
export function CrmMailingTemplatesTable() {
  const { data, isPending, isError } = useListMailingTemplates({
    query: { meta: { errorMessage: 'Could not load templates' } },
  });
  if (isPending) return <PageSpinner label="Loading templates" />;
  if (isError) return <Alert variant="danger">Could not load templates.</Alert>;
  if (data.length === 0) return <EmptyState>No templates yet.</EmptyState>;
  return <DataTable label="Templates" columns={columns} data={data} hover small={false} />;
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

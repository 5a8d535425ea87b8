import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { Breadcrumbs, type Crumb } from '@/components/breadcrumbs';
import { CrmListsTable } from './crm-lists-table';

export const LISTS_CRUMBS: Crumb[] = [{ label: 'CRM' }, { label: 'Lists', to: '/crm-lists' }];

export function CrmListsPage() {
  const navigate = useNavigate();
  return (
    <>
      <Breadcrumbs crumbs={LISTS_CRUMBS} />
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Lists</h1>
        <Button onClick={() => void navigate('/crm-list-add')}>Create List</Button>
      </div>
      <CrmListsTable />
    </>
  );
}

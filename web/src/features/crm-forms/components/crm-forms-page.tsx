import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { Breadcrumbs, type Crumb } from '@/components/breadcrumbs';
import { CrmFormsTable } from './crm-forms-table';

export const FORMS_CRUMBS: Crumb[] = [{ label: 'CRM' }, { label: 'Forms', to: '/crm-forms' }];

export function CrmFormsPage() {
  const navigate = useNavigate();
  return (
    <>
      <Breadcrumbs crumbs={FORMS_CRUMBS} />
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Forms</h1>
        <Button onClick={() => void navigate('/crm-form-add')}>Send Form</Button>
      </div>
      <CrmFormsTable />
    </>
  );
}

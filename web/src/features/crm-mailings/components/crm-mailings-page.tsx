import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { Breadcrumbs, type Crumb } from '@/components/breadcrumbs';
import { CrmMailingsTable } from './crm-mailings-table';

export const MAILINGS_CRUMBS: Crumb[] = [{ label: 'CRM' }, { label: 'Mailings', to: '/crm-mailings' }];

export function CrmMailingsPage() {
  const navigate = useNavigate();
  return (
    <>
      <Breadcrumbs crumbs={MAILINGS_CRUMBS} />
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Mailings</h1>
        <Button onClick={() => void navigate('/crm-mailing-add')}>Send Mailing</Button>
      </div>
      <CrmMailingsTable />
    </>
  );
}

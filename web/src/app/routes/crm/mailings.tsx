import { CrmMailingsPage } from '@/features/crm-mailings/components/crm-mailings-page';

export function Component() {
  return <CrmMailingsPage />;
}

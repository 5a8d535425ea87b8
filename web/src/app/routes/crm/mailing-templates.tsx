import { CrmMailingTemplatesPage } from '@/features/crm-mailings/components/crm-mailing-templates-page';

export function Component() {
  return <CrmMailingTemplatesPage />;
}

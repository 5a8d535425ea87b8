import { CrmMailingEditor } from '@/features/crm-mailings/components/crm-mailing-editor';

export function Component() {
  return <CrmMailingEditor />;
}

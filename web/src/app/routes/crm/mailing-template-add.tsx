import { CrmMailingTemplateEditor } from '@/features/crm-mailings/components/crm-mailing-template-editor';

export function Component() {
  return <CrmMailingTemplateEditor />;
}

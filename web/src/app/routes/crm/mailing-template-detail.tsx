import { useParams } from 'react-router';
import { CrmMailingTemplateEditor } from '@/features/crm-mailings/components/crm-mailing-template-editor';

export function Component() {
  const { id } = useParams();
  const templateId = Number(id);
  // A new id means a new page (fresh editor state).
  return <CrmMailingTemplateEditor key={templateId} id={templateId} />;
}

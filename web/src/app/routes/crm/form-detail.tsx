import { useParams } from 'react-router';
import { CrmFormEditor } from '@/features/crm-forms/components/crm-form-editor';

export function Component() {
  const { id } = useParams();
  const formId = Number(id);
  // A new id means a new page (fresh editor state).
  return <CrmFormEditor key={formId} id={formId} />;
}

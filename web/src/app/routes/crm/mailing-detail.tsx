import { useParams } from 'react-router';
import { CrmMailingEditor } from '@/features/crm-mailings/components/crm-mailing-editor';

export function Component() {
  const { id } = useParams();
  const mailingId = Number(id);
  // A new id means a new page (fresh editor state).
  return <CrmMailingEditor key={mailingId} id={mailingId} />;
}

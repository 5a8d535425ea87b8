import { useParams } from 'react-router';
import { CrmListDetail } from '@/features/crm-lists/components/crm-list-detail';

export function Component() {
  const { id } = useParams();
  const listId = Number(id);
  // A new id means a new page (fresh dialog state).
  return <CrmListDetail key={listId} id={listId} />;
}

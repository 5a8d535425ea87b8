import { CrmListsPage } from '@/features/crm-lists/components/crm-lists-page';

export function Component() {
  return <CrmListsPage />;
}

import { CrmListAddPage } from '@/features/crm-lists/components/crm-list-add-page';

export function Component() {
  return <CrmListAddPage />;
}

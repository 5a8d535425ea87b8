import { CrmFormsPage } from '@/features/crm-forms/components/crm-forms-page';

export function Component() {
  return <CrmFormsPage />;
}

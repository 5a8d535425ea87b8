import { CrmFormEditor } from '@/features/crm-forms/components/crm-form-editor';

export function Component() {
  return <CrmFormEditor />;
}

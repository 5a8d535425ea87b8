import { Breadcrumbs } from '@/components/breadcrumbs';
import { CrmListAddForm } from './crm-list-add-form';
import { LISTS_CRUMBS } from './crm-lists-page';

export function CrmListAddPage() {
  return (
    <>
      <Breadcrumbs crumbs={[...LISTS_CRUMBS, { label: 'Create List' }]} />
      <h1 className="h3 mb-3">Create List</h1>
      <CrmListAddForm />
    </>
  );
}

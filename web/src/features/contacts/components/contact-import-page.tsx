import { Breadcrumbs } from '@/components/breadcrumbs';
import { CONTACTS_CRUMB } from './contact-detail';
import { ContactImportForm } from './contact-import-form';

export function ContactImportPage() {
  return (
    <>
      <Breadcrumbs crumbs={[CONTACTS_CRUMB, { label: 'Import contacts' }]} />
      <h1 className="h3 mb-3">Import contacts</h1>
      <ContactImportForm />
    </>
  );
}

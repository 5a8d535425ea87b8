import { ContactImportPage } from '@/features/contacts/components/contact-import-page';

export function Component() {
  return <ContactImportPage />;
}

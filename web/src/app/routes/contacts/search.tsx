import { ContactSearchPage } from '@/features/contacts/components/contact-search-page';

export function Component() {
  return <ContactSearchPage />;
}

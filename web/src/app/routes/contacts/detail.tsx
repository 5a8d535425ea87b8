import { useParams } from 'react-router';
import { ContactDetail } from '@/features/contacts/components/contact-detail';

export function Component() {
  const { id } = useParams();
  const contactId = Number(id);
  return <ContactDetail key={contactId} id={contactId} />;
}

import { useParams } from 'react-router';
import { ContactDetail } from '@/features/contacts/components/contact-detail';
import { ContactJourneys } from '@/features/journeys/components/contact-journeys';
import { ContactGiving } from '@/features/revenue/components/contact-giving';

export function Component() {
  const { id } = useParams();
  const contactId = Number(id);
  return (
    <>
      <ContactDetail key={contactId} id={contactId} />
      {Number.isInteger(contactId) && contactId > 0 && (
        <>
          <ContactGiving key={`giving-${contactId}`} contactId={contactId} />
          <ContactJourneys key={`journeys-${contactId}`} contactId={contactId} />
        </>
      )}
    </>
  );
}

import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { useGetContact } from '@/api/gen';
import type { ContactDetail as ContactDetailData } from '@/api/gen/model';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { DetailGrid } from '@/components/detail-grid';
import { PageSpinner } from '@/components/page-spinner';
import { formatDateTime } from '@/lib/format';
import { SubscriptionBadge } from './subscription-badge';

export const CONTACTS_CRUMB = { label: 'Contacts', to: '/contacts' };

const NONE = <span className="text-body-secondary">—</span>;

function ContactDetails({ detail }: { detail: ContactDetailData }) {
  const { contact, lists } = detail;
  return (
    <>
      <Card className="mb-3">
        <Card.Body>
          <DetailGrid
            rows={[
              ['Email', contact.email],
              ['First', contact.firstName || NONE],
              ['Last', contact.lastName || NONE],
              ['Phone', contact.phone || NONE],
              ['VANID', contact.vanid ?? NONE],
              ['Origin code', contact.originCodeName || NONE],
              ['Subscription', <SubscriptionBadge subscription={contact.subscription} />],
              ['Created', formatDateTime(contact.created)],
            ]}
          />
        </Card.Body>
      </Card>
      <h2 className="h5">Lists</h2>
      {lists.length === 0 ? (
        <p className="text-body-secondary">This contact is not in any list.</p>
      ) : (
        <ListGroup aria-label="Lists">
          {lists.map((list) => (
            <ListGroup.Item key={list.id}>
              <Link to={`/crm-list-detail/${list.id}`}>{list.name}</Link>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </>
  );
}

/** One contact: its fields and the lists it is in. */
export function ContactDetail({ id }: { id: number }) {
  const valid = Number.isInteger(id) && id > 0;
  const contact = useGetContact(id, {
    query: {
      enabled: valid,
      // A missing contact is shown on the page; other errors also go to the snackbar.
      meta: { errorMessage: 'Could not load the contact' },
    },
  });
  const notFound = !valid || contact.error?.status === 404;
  const title = contact.data?.contact.email ?? 'Contact';
  return (
    <>
      <Breadcrumbs crumbs={[CONTACTS_CRUMB, { label: title }]} />
      <h1 className="h3 mb-3">{title}</h1>
      {notFound ? (
        <Alert variant="warning">Contact not found</Alert>
      ) : contact.isError ? (
        <Alert variant="danger">Could not load the contact.</Alert>
      ) : contact.isPending ? (
        <PageSpinner label="Loading contact" />
      ) : (
        <ContactDetails detail={contact.data} />
      )}
    </>
  );
}

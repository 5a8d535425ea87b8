import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { keepPreviousData } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useSearchContacts } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount, formatDate } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { contactName } from '../utils';
import { SubscriptionBadge } from './subscription-badge';

/** How long the search box waits for typing to stop before searching. */
export const CONTACT_SEARCH_DEBOUNCE_MS = 300;
export const CONTACT_PAGE_SIZE = 25;

/** The search box, the matching contacts (one page at a time, searched on the server) and paging controls. */
export function ContactSearch() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), CONTACT_SEARCH_DEBOUNCE_MS);
  // The page belongs to the search it was chosen for; a new search starts at page 1.
  const [paging, setPaging] = useState({ q, page: 1 });
  const page = paging.q === q ? paging.page : 1;
  const setPage = (next: number) => setPaging({ q, page: next });

  const search = useSearchContacts(
    { ...(q ? { q } : {}), page, pageSize: CONTACT_PAGE_SIZE },
    { query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load contacts' } } },
  );
  const data = search.data;
  const pageSize = data?.pageSize || CONTACT_PAGE_SIZE;
  const pages = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;

  return (
    <>
      <Form.Group className="mb-3" controlId="contact-search">
        <Form.Label visuallyHidden>Search contacts</Form.Label>
        <Form.Control
          type="search"
          placeholder="Search by email or name…"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </Form.Group>
      {search.isPending ? (
        <PageSpinner label="Loading contacts" />
      ) : search.isError ? (
        <Alert variant="danger">Could not load contacts.</Alert>
      ) : data && data.items.length === 0 ? (
        <EmptyState>{q ? 'No contacts match this search.' : 'No contacts yet.'}</EmptyState>
      ) : data ? (
        <>
          <Table striped hover responsive aria-label="Contacts">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Origin code</th>
                <th scope="col">Subscription</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((contact) => (
                <tr key={contact.id}>
                  <td>
                    <Link to={`/contacts/${contact.id}`}>{contact.email}</Link>
                  </td>
                  <td>{contactName(contact)}</td>
                  <td>{contact.originCodeName ?? ''}</td>
                  <td>
                    <SubscriptionBadge subscription={contact.subscription} />
                  </td>
                  <td>{formatDate(contact.created)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
          <div className="d-flex align-items-center justify-content-between gap-2 flex-wrap">
            <span className="text-body-secondary">{formatCount(data.total)} contacts</span>
            <div className="d-flex align-items-center gap-2">
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={page <= 1 || search.isFetching}
                onClick={() => setPage(page - 1)}
              >
                Previous
              </Button>
              <span aria-live="polite">
                Page {formatCount(page)} of {formatCount(pages)}
              </span>
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={page >= pages || search.isFetching}
                onClick={() => setPage(page + 1)}
              >
                Next
              </Button>
            </div>
          </div>
        </>
      ) : null}
    </>
  );
}

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
  // The page belongs to the search it was chosen for; a new search starts at page 1. `cursors[i]` is the server's
  // `next` of page i + 1, so page n > 1 is asked for "after" cursors[n - 2] (fast however deep the page).
  const [paging, setPaging] = useState<{ q: string; page: number; cursors: string[] }>({
    q,
    page: 1,
    cursors: [],
  });
  const current = paging.q === q ? paging : { q, page: 1, cursors: [] };
  const page = current.page;
  const after = page > 1 ? current.cursors[page - 2] : undefined;
  const setPage = (next: number, cursor?: string | null) => {
    const cursors = [...current.cursors];
    if (cursor) cursors[page - 1] = cursor;
    setPaging({ q, page: next, cursors });
  };

  const search = useSearchContacts(
    { ...(q ? { q } : {}), page, pageSize: CONTACT_PAGE_SIZE, ...(after ? { after } : {}) },
    { query: { placeholderData: keepPreviousData, meta: { errorMessage: 'Could not load contacts' } } },
  );
  const data = search.data;
  const pageSize = data?.pageSize || CONTACT_PAGE_SIZE;
  const pages = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;
  // Past 10,000 matches the server estimates the total; it says "about" then.
  const about = data?.totalEstimated ? 'about ' : '';
  const hasNext = data?.next ? true : data?.next === undefined && page < pages;

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
            <span className="text-body-secondary">
              {about}
              {formatCount(data.total)} contacts
            </span>
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
                Page {formatCount(page)} of {about}
                {formatCount(pages)}
              </span>
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={!hasNext || search.isFetching}
                onClick={() => setPage(page + 1, data.next)}
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

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useSearchContacts } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatIsoDate } from '@/lib/date-range';
import { formatCount, formatDate } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { contactName } from '../utils';
import { SubscriptionBadge } from './subscription-badge';
import { columnsFor, DataTable } from '@/components/data-table';
import type { ContactPage } from '@/api/gen/model';

/** How long the search box waits for typing to stop before searching. */
export const CONTACT_SEARCH_DEBOUNCE_MS = 300;
export const CONTACT_PAGE_SIZE = 25;

const SUBSCRIPTIONS = ['subscribed', 'unsubscribed', 'bounced'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters other pages link here with (an origin code's row, the dashboard's subscribed tile). */
export function contactFiltersFromParams(params: URLSearchParams) {
  const origin = params.get('originCodeId');
  const subscription = params.get('subscription');
  const from = params.get('createdFrom');
  const to = params.get('createdTo');
  return {
    originCodeId: origin && /^\d+$/.test(origin) ? Number(origin) : undefined,
    subscription: subscription && SUBSCRIPTIONS.includes(subscription) ? subscription : undefined,
    createdFrom: from && DAY.test(from) ? from : undefined,
    createdTo: to && DAY.test(to) ? to : undefined,
  };
}

const col = columnsFor<ContactPage['items'][number]>();
const columns = col.columns([
  col.accessor('email', {
    header: 'Email',
    cell: (info) => <Link to={`/contacts/${info.row.original.id}`}>{info.getValue()}</Link>,
  }),
  col.display({ id: 'name', header: 'Name', cell: ({ row }) => contactName(row.original) }),
  col.accessor('originCodeName', { header: 'Origin code', cell: (info) => info.getValue() ?? '' }),
  col.accessor('subscription', {
    header: 'Subscription',
    cell: (info) => <SubscriptionBadge subscription={info.getValue()} />,
  }),
  col.accessor('created', { header: 'Created', cell: (info) => formatDate(info.getValue()) }),
]);

/** The search box, the matching contacts (one page at a time, searched on the server) and paging controls. */
export function ContactSearch() {
  const [params, setParams] = useSearchParams();
  const filters = contactFiltersFromParams(params);
  const clear = (...keys: string[]) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const key of keys) out.delete(key);
      return out;
    });
  const [text, setText] = useState('');
  const typed = useDebouncedValue(text.trim(), CONTACT_SEARCH_DEBOUNCE_MS);
  // The paging below belongs to one search: the filters are part of it.
  const q = `${typed}\u0000${JSON.stringify(filters)}`;
  const searching = Boolean(typed) || Object.values(filters).some((v) => v !== undefined);
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
    {
      ...(typed ? { q: typed } : {}),
      ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
      page, pageSize: CONTACT_PAGE_SIZE, ...(after ? { after } : {}) },
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
      {(filters.originCodeId !== undefined || filters.subscription || filters.createdFrom || filters.createdTo) && (
        <div className="d-flex flex-wrap gap-2 mb-3" role="group" aria-label="Filters">
          {filters.originCodeId !== undefined && (
            <Button size="sm" variant="outline-secondary" onClick={() => clear('originCodeId', 'originCode')}>
              Origin code: {params.get('originCode') ?? `#${filters.originCodeId}`} ×
            </Button>
          )}
          {filters.subscription && (
            <Button size="sm" variant="outline-secondary" onClick={() => clear('subscription')}>
              Subscription: {filters.subscription} ×
            </Button>
          )}
          {(filters.createdFrom || filters.createdTo) && (
            <Button size="sm" variant="outline-secondary" onClick={() => clear('createdFrom', 'createdTo')}>
              Created {filters.createdFrom ? formatIsoDate(filters.createdFrom) : '…'} –{' '}
              {filters.createdTo ? formatIsoDate(filters.createdTo) : '…'} ×
            </Button>
          )}
        </div>
      )}
      {search.isPending ? (
        <PageSpinner label="Loading contacts" />
      ) : search.isError ? (
        <Alert variant="danger">Could not load contacts.</Alert>
      ) : data && data.items.length === 0 ? (
        <EmptyState>{searching ? 'No contacts match this search.' : 'No contacts yet.'}</EmptyState>
      ) : data ? (
        <>
          <DataTable label="Contacts" columns={columns} data={data.items} hover small={false} />
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

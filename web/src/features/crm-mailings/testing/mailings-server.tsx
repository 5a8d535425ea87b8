import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import type { CrmList, Mailing, MailingStats, MailingTemplate } from '@/api/gen/model';
import { sent, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { CrmMailingEditor } from '../components/crm-mailing-editor';
import { CrmMailingTemplateEditor } from '../components/crm-mailing-template-editor';

export const MAILING: Mailing = {
  id: 7,
  name: 'June appeal',
  subjectLine: 'Help us in June',
  senderId: 2,
  senderName: 'Campaign HQ <hq@example.org>',
  sendTime: '2026-06-01T09:30:00Z',
  listId: 5,
  listName: 'Volunteers',
  bodyHtml: '<p>Hello {{First.Name}}</p>',
  isDraft: true,
  openCount: 0,
  recipCount: 0,
  delivery: 'idle',
  created: '2026-05-01T10:00:00Z',
  delivered: 0,
  revenue: '0.00',
  gifts: 0,
  donors: 0,
  responseRate: 0,
  rpm: '0.00',
  previewText: '',
  variantSeed: 1,
  respectCap: true,
  heldBack: 0,
  suppressions: [],
  variants: [],
};

export const LIST: CrmList = { id: 5, name: 'Volunteers', count: 2, created: '2026-05-01T10:00:00Z', kind: 'upload' as CrmList['kind'], originCodes: [] };
export const TEMPLATE: MailingTemplate = {
  id: 3,
  name: 'Newsletter',
  bodyHtml: '<h1>Newsletter</h1>',
  created: '2026-05-01T10:00:00Z',
  updated: '2026-05-01T10:00:00Z',
};

export const STATS: MailingStats = {
  recipients: 1234,
  delivered: 1200,
  failed: 30,
  bounced: 4,
  uniqueOpens: 12,
  machineOpens: 3,
  uniqueClicks: 5,
  clicks: 9,
  unsubscribes: 2,
  heldBack: 0,
};

const echo = async (mailing: Mailing, request: Request, status = 200) =>
  HttpResponse.json({ ...mailing, ...((await request.json()) as Partial<Mailing>) }, { status });

/** The server: lookups for the editor, the given mailing and its figures, and echoes of writes. */
export function serve(mailing: Mailing = MAILING, stats: MailingStats = STATS) {
  server.use(
    http.get('/api/sender/sender-names', () => HttpResponse.json([{ id: 2, label: 'Campaign HQ <hq@example.org>' }])),
    http.get('/api/crm-list', () => HttpResponse.json([LIST])),
    http.get('/api/crm-mailing/audiences', () =>
      HttpResponse.json([
        { kind: 'list', id: 5, name: 'Volunteers', size: 2 },
        { kind: 'segment', id: 11, name: 'Lapsed donors', size: 1200 },
        { kind: 'segment', id: 12, name: 'Major donors', size: 40 },
      ]),
    ),
    http.get('/api/crm-mailing-template', () => HttpResponse.json([TEMPLATE])),
    http.post('/api/crm-mailing-template', () => HttpResponse.json(TEMPLATE, { status: 201 })),
    http.post('/api/crm-mailing/merge-check', () => HttpResponse.json({ recipients: 2, warnings: [] })),
    http.all('/api/crm-mailing/send-to-my-inbox', () => HttpResponse.json({ message: 'sent', to: 'me@example.org' })),
    http.post('/api/crm-mailing', ({ request }) => echo(mailing, request, 201)),
    http.patch(`/api/crm-mailing/${mailing.id}`, ({ request }) => echo(mailing, request)),
    http.delete(`/api/crm-mailing/${mailing.id}`, () => new HttpResponse(null, { status: 204 })),
    http.all(`/api/crm-mailing/${mailing.id}/links`, () =>
      HttpResponse.json([{ url: 'https://example.org/give', clicks: 12, clickers: 9 }]),
    ),
    http.all(`/api/crm-mailing/${mailing.id}/stats`, () => HttpResponse.json(stats)),
    http.all(`/api/crm-mailing/${mailing.id}`, () => HttpResponse.json(mailing)),
    // Whatever else the screens ask for (activity, revenue) is empty.
    http.all('*', () => HttpResponse.json([])),
  );
}

export function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

export function renderEditor(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/crm-mailing-add" element={<CrmMailingEditor />} />
        <Route path="/crm-mailing-detail/:id" element={<CrmMailingEditor id={MAILING.id} />} />
        <Route path="/crm-mailing-template-add" element={<CrmMailingTemplateEditor />} />
        <Route path="/crm-mailing-template-detail/:id" element={<CrmMailingTemplateEditor id={TEMPLATE.id} />} />
        <Route path="*" element={null} />
      </Routes>
      <Location />
    </>,
    { route },
  );
}

/** The body of the first request with this method to a mailing address. */
export async function bodyOf(method: string) {
  await settled();
  return sent().find(
    (r) => r.method === method && r.url.startsWith('/api/crm-mailing') && !r.url.startsWith('/api/crm-mailing/merge-check'),
  )?.body as
    | Record<string, unknown>
    | undefined;
}

export async function fillSetup() {
  await userEvent.type(screen.getByLabelText('Mailing name'), 'June appeal');
  const sender = await screen.findByRole('option', { name: 'Campaign HQ <hq@example.org>' });
  await userEvent.selectOptions(screen.getByLabelText('Sender'), sender);
  await userEvent.type(screen.getByLabelText('Subject'), 'Help us in June');
  fireEvent.change(screen.getByLabelText('Send time'), { target: { value: '2026-06-01T09:30' } });
  await screen.findByRole('option', { name: 'Volunteers' });
  await userEvent.selectOptions(screen.getByLabelText('Audience list'), 'Volunteers');
}

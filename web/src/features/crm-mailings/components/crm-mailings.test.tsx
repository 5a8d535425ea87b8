import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CrmList, Mailing, MailingStats, MailingTemplate } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { jsonResponse, renderWithProviders } from '@/test/utils';
import { CrmMailingEditor } from './crm-mailing-editor';
import { CrmMailingTemplateEditor } from './crm-mailing-template-editor';
import { CrmMailingsTable } from './crm-mailings-table';

const fetchMock = vi.fn<typeof fetch>();
// The editor's tests type into many fields: on a loaded machine they need more than the default 5 s.
vi.setConfig({ testTimeout: 30_000 });

const MAILING: Mailing = {
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
  suppressions: [],
  variants: [],
};

const LIST: CrmList = { id: 5, name: 'Volunteers', count: 2, created: '2026-05-01T10:00:00Z', kind: 'upload' as CrmList['kind'], originCodes: [] };
const TEMPLATE: MailingTemplate = {
  id: 3,
  name: 'Newsletter',
  bodyHtml: '<h1>Newsletter</h1>',
  created: '2026-05-01T10:00:00Z',
  updated: '2026-05-01T10:00:00Z',
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => act(() => clearSnacks()));

function Location() {
  return <div data-testid="location">{useLocation().pathname}</div>;
}

const STATS: MailingStats = {
  recipients: 1234,
  delivered: 1200,
  failed: 30,
  bounced: 4,
  uniqueOpens: 12,
  machineOpens: 3,
  uniqueClicks: 5,
  clicks: 9,
  unsubscribes: 2,
};

/** The server: lookups for the editor, the given mailing and its figures, and echoes of writes. */
function serve(mailing: Mailing = MAILING, stats: MailingStats = STATS) {
  fetchMock.mockImplementation((input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/sender/sender-names') return Promise.resolve(jsonResponse([{ id: 2, label: 'Campaign HQ <hq@example.org>' }]));
    if (url === '/api/crm-list') return Promise.resolve(jsonResponse([LIST]));
    if (url === '/api/crm-mailing/audiences')
      return Promise.resolve(
        jsonResponse([
          { kind: 'list', id: 5, name: 'Volunteers', size: 2 },
          { kind: 'segment', id: 11, name: 'Lapsed donors', size: 1200 },
          { kind: 'segment', id: 12, name: 'Major donors', size: 40 },
        ]),
      );
    if (url === '/api/crm-mailing-template' && method === 'GET') return Promise.resolve(jsonResponse([TEMPLATE]));
    if (url === '/api/crm-mailing-template' && method === 'POST') return Promise.resolve(jsonResponse(TEMPLATE, 201));
    if (url === '/api/crm-mailing/send-to-my-inbox') return Promise.resolve(jsonResponse({ message: 'sent', to: 'me@example.org' }));
    if (url === '/api/crm-mailing' && method === 'POST') return Promise.resolve(jsonResponse({ ...mailing, ...JSON.parse(String(init?.body)) }, 201));
    if (url === `/api/crm-mailing/${mailing.id}` && method === 'PATCH') return Promise.resolve(jsonResponse({ ...mailing, ...JSON.parse(String(init?.body)) }));
    if (url === `/api/crm-mailing/${mailing.id}` && method === 'DELETE') return Promise.resolve(new Response(null, { status: 204 }));
    if (url === `/api/crm-mailing/${mailing.id}/links`)
      return Promise.resolve(jsonResponse([{ url: 'https://example.org/give', clicks: 12, clickers: 9 }]));
    if (url === `/api/crm-mailing/${mailing.id}/stats`) return Promise.resolve(jsonResponse(stats));
    if (url === `/api/crm-mailing/${mailing.id}`) return Promise.resolve(jsonResponse(mailing));
    return Promise.resolve(jsonResponse([]));
  });
}

function renderEditor(route: string) {
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

const bodyOf = (method: string) => {
  const call = fetchMock.mock.calls.find(([url, init]) => init?.method === method && String(url).startsWith('/api/crm-mailing'));
  return call ? (JSON.parse(String(call[1]!.body)) as Record<string, unknown>) : undefined;
};

async function fillSetup() {
  await userEvent.type(screen.getByLabelText('Mailing name'), 'June appeal');
  const sender = await screen.findByRole('option', { name: 'Campaign HQ <hq@example.org>' });
  await userEvent.selectOptions(screen.getByLabelText('Sender'), sender);
  await userEvent.type(screen.getByLabelText('Subject'), 'Help us in June');
  fireEvent.change(screen.getByLabelText('Send time'), { target: { value: '2026-06-01T09:30' } });
  await screen.findByRole('option', { name: 'Volunteers' });
  await userEvent.selectOptions(screen.getByLabelText('Audience list'), 'Volunteers');
}

describe('CrmMailingsTable', () => {
  it('shows the derived status, open rate with 3 decimals and recipients', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse([
        MAILING,
        { ...MAILING, id: 8, name: 'May appeal', isDraft: false, sendAttempt: '2026-05-02T10:00:00Z', openCount: 1, recipCount: 3 },
        { ...MAILING, id: 9, name: 'July appeal', isDraft: false },
      ]),
    );
    renderWithProviders(<CrmMailingsTable />);
    const draft = (await screen.findByRole('link', { name: 'June appeal' })).closest('tr')!;
    expect(within(draft).getByText('DRAFT')).toBeInTheDocument();
    expect(within(draft).getByText('0.000')).toBeInTheDocument();
    expect(within(draft).getByText('Help us in June')).toBeInTheDocument();
    expect(within(draft).getByText(new Date(MAILING.sendTime!).toLocaleString())).toBeInTheDocument();
    const sent = screen.getByRole('link', { name: 'May appeal' }).closest('tr')!;
    expect(sent).toHaveTextContent('SENT');
    expect(within(sent).getByText('0.333')).toBeInTheDocument();
    expect(within(sent).getByText('3')).toBeInTheDocument();
    const confirmed = screen.getByRole('link', { name: 'July appeal' });
    expect(confirmed).toHaveAttribute('href', '/crm-mailing-detail/9');
    expect(confirmed.closest('tr')).toHaveTextContent('CONFIRMED');
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/crm-mailing');
  });
});

describe('CrmMailingEditor', () => {
  it('keeps Save Draft and Send to my inbox disabled until the setup is valid', async () => {
    serve();
    renderEditor('/crm-mailing-add');
    expect(screen.getByRole('link', { name: 'Create a list' })).toHaveAttribute('href', '/crm-list-add');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Save Draft' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send to my inbox' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Mailing Setup' }));
    await userEvent.type(screen.getByLabelText('Mailing name'), 'June appeal');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Save Draft' })).toBeDisabled();
    await userEvent.click(screen.getByRole('tab', { name: 'Mailing Setup' }));
    await userEvent.clear(screen.getByLabelText('Mailing name'));
    await fillSetup();
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Save Draft' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send to my inbox' })).toBeEnabled();

    await userEvent.click(screen.getByRole('button', { name: 'Send to my inbox' }));
    expect(await screen.findByText('Draft sent')).toBeInTheDocument();
    const test = fetchMock.mock.calls.find(([url]) => String(url) === '/api/crm-mailing/send-to-my-inbox')!;
    expect(JSON.parse(String(test[1]!.body))).toEqual({
      name: 'June appeal',
      subjectLine: 'Help us in June',
      senderId: 2,
      sendTime: new Date(2026, 5, 1, 9, 30).toISOString(),
      listId: 5,
      bodyHtml: '',
    });
  });

  it('Save Draft posts isDraft true with the template body, says "Draft saved" and returns to the mailings', async () => {
    serve();
    renderEditor('/crm-mailing-add');
    await fillSetup();
    await userEvent.click(screen.getByRole('tab', { name: 'HTML Editor' }));
    await screen.findByRole('option', { name: 'Newsletter' });
    await userEvent.selectOptions(screen.getByLabelText('Template'), 'Newsletter');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByTitle('Mailing preview')).toHaveAttribute('sandbox', '');
    expect(screen.getByTitle('Mailing preview')).toHaveAttribute('srcdoc', TEMPLATE.bodyHtml);
    await userEvent.click(screen.getByRole('button', { name: 'Save Draft' }));
    expect(await screen.findByText('Draft saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-mailings'));
    expect(bodyOf('POST')).toEqual({
      name: 'June appeal',
      subjectLine: 'Help us in June',
      senderId: 2,
      sendTime: new Date(2026, 5, 1, 9, 30).toISOString(),
      listId: 5,
      segmentId: null,
      suppressionListIds: [],
      suppressionSegmentIds: [],
      previewText: '',
      variants: [],
      bodyHtml: TEMPLATE.bodyHtml,
      isDraft: true,
    });
  });

  it('issue 15: ?segment= preselects the segment; suppressions and variants are saved with the mailing', async () => {
    serve();
    renderEditor('/crm-mailing-add?segment=11');
    await userEvent.type(screen.getByLabelText('Mailing name'), 'June appeal');
    const sender = await screen.findByRole('option', { name: 'Campaign HQ <hq@example.org>' });
    await userEvent.selectOptions(screen.getByLabelText('Sender'), sender);
    await userEvent.type(screen.getByLabelText('Subject'), 'Help us in June');
    fireEvent.change(screen.getByLabelText('Send time'), { target: { value: '2026-06-01T09:30' } });
    expect(screen.getByLabelText('A segment')).toBeChecked();
    await screen.findByRole('option', { name: 'Lapsed donors (1,200)' });
    expect(screen.getByLabelText('Audience segment')).toHaveValue('11');
    await userEvent.selectOptions(screen.getByLabelText('Leave out (suppression lists and segments)'), [
      'List: Volunteers',
      'Segment: Major donors',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Add variant' }));
    await userEvent.type(screen.getByLabelText('Variant B subject'), 'A second subject');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByText('Volunteers, Major donors')).toBeInTheDocument();
    expect(screen.getByText('A to B')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save Draft' }));
    expect(await screen.findByText('Draft saved')).toBeInTheDocument();
    expect(bodyOf('POST')).toMatchObject({
      listId: null,
      segmentId: 11,
      suppressionListIds: [5],
      suppressionSegmentIds: [12],
      variants: [{ subjectLine: 'A second subject', senderId: null, previewText: null, bodyHtml: null }],
    });
  });

  it('Confirm on a saved draft patches isDraft false and says "Mailing confirmed"', async () => {
    serve();
    renderEditor('/crm-mailing-detail/7');
    expect(await screen.findByRole('heading', { name: 'June appeal' })).toBeInTheDocument();
    expect(screen.getByLabelText('Mailing name')).toHaveValue('June appeal');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Mailing confirmed')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-mailings'));
    expect(bodyOf('PATCH')).toMatchObject({ isDraft: false, senderId: 2, listId: 5, sendTime: MAILING.sendTime!.replace('Z', '.000Z') });
    expect(bodyOf('POST')).toBeUndefined();
  });

  it('deletes an editable mailing after confirmation', async () => {
    serve();
    renderEditor('/crm-mailing-detail/7');
    await screen.findByRole('heading', { name: 'June appeal' });
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-mailings'));
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/crm-mailing/7' && init?.method === 'DELETE')).toBe(true);
  });

  it('merge-tag buttons insert the tags at the cursor of the HTML source, and append in rich text', async () => {
    serve();
    renderEditor('/crm-mailing-add');
    await userEvent.click(screen.getByRole('tab', { name: 'HTML Editor' }));
    const tags = screen.getByRole('group', { name: 'Merge tags' });

    // Rich text (the default): appended at the end without a caret in the editor.
    await userEvent.click(within(tags).getByRole('button', { name: 'Email' }));
    expect(screen.getByRole('textbox', { name: 'Body' })).toHaveTextContent('{{Email}}');

    await userEvent.click(screen.getByRole('radio', { name: 'HTML source' }));
    const source = screen.getByLabelText('Body HTML');
    expect(source).toHaveValue('{{Email}}');
    fireEvent.change(source, { target: { value: '<p>Dear </p>' } });
    (source as HTMLTextAreaElement).setSelectionRange(8, 8);
    fireEvent.select(source);
    await userEvent.click(within(tags).getByRole('button', { name: 'First.Name' }));
    expect(source).toHaveValue('<p>Dear {{First.Name}}</p>');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByTitle('Mailing preview')).toHaveAttribute('srcdoc', '<p>Dear {{First.Name}}</p>');
  });

  it('shows a sent mailing read-only, with its figures and Delete but no Save buttons', async () => {
    serve({
      ...MAILING,
      isDraft: false,
      sendAttempt: '2026-06-01T09:30:05Z',
      openCount: 1,
      recipCount: 4,
      delivery: 'done',
      deliveryMessage: '4 sent',
    });
    renderEditor('/crm-mailing-detail/7');
    expect(await screen.findByRole('heading', { name: 'June appeal' })).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Draft' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
    expect(screen.getByText('Campaign HQ <hq@example.org>')).toBeInTheDocument();
    expect(screen.getByText('Help us in June')).toBeInTheDocument();
    expect(screen.getByText('Volunteers')).toBeInTheDocument();
    expect(await screen.findByRole('definition', { name: 'Open rate' })).toHaveTextContent('0.010');
    expect(screen.getByText('done — 4 sent')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const body = screen.getByTitle('Mailing body');
    expect(body).toHaveAttribute('sandbox', '');
    expect(body).toHaveAttribute('srcdoc', MAILING.bodyHtml);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
    // Issue 17 item 16: clicks per link and the first 48 hours.
    const links = await screen.findByRole('table', { name: 'Clicks per link' });
    expect(within(links).getByText('https://example.org/give')).toBeInTheDocument();
    expect(within(links).getByText('12')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Opens and clicks, first 48 hours' })).toBeInTheDocument();
  });
});

describe('MailingFigures', () => {
  const SENT: Mailing = { ...MAILING, isDraft: false, sendAttempt: '2026-06-01T09:30:05Z', delivery: 'done' };
  const figure = (label: string) => screen.getByRole('definition', { name: label });

  it("shows the sent mailing's figures from the stats endpoint, counts in the browser locale", async () => {
    serve(SENT);
    renderEditor('/crm-mailing-detail/7');
    expect(await screen.findByRole('definition', { name: 'Recipients' })).toHaveTextContent((1234).toLocaleString());
    expect(figure('Delivered')).toHaveTextContent((1200).toLocaleString());
    expect(figure('Failed')).toHaveTextContent('30');
    expect(figure('Bounced')).toHaveTextContent('4');
    expect(figure('Unique opens')).toHaveTextContent('12 (+3 machine)');
    expect(figure('Clicks')).toHaveTextContent('5 (9 total)');
    expect(figure('Unsubscribes')).toHaveTextContent('2');
    expect(figure('Open rate')).toHaveTextContent('0.010');
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/crm-mailing/7/stats')).toHaveLength(1);
  });

  it('leaves machine opens out when there are none', async () => {
    serve(SENT, { ...STATS, uniqueOpens: 1, machineOpens: 0 });
    renderEditor('/crm-mailing-detail/7');
    expect(await screen.findByRole('definition', { name: 'Unique opens' })).toHaveTextContent(/^1$/);
  });

  it('warns with the message when delivery is paused', async () => {
    serve({ ...SENT, delivery: 'paused', deliveryMessage: 'The mail server refused the sender' });
    renderEditor('/crm-mailing-detail/7');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Delivery paused');
    expect(alert).toHaveTextContent('The mail server refused the sender');
  });

  it('resumes a paused send', async () => {
    serve({ ...SENT, delivery: 'paused', deliveryMessage: 'Paused: the mail server refused every recent message.' });
    const base = fetchMock.getMockImplementation();
    fetchMock.mockImplementation((input, init) => {
      if (String(input) === `/api/crm-mailing/${SENT.id}/resume` && init?.method === 'POST') {
        return Promise.resolve(jsonResponse({ ...SENT, delivery: 'sending', deliveryMessage: null }));
      }
      return base ? base(input, init) : Promise.resolve(jsonResponse([]));
    });
    renderEditor('/crm-mailing-detail/7');
    await userEvent.click(await screen.findByRole('button', { name: 'Resume sending' }));
    expect(await screen.findByText(/figures refresh every 5 seconds/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === '/api/crm-mailing/7/resume' && init?.method === 'POST')).toBe(true);
  });

  it('refreshes the figures every 5 seconds while sending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      serve({ ...SENT, delivery: 'sending' });
      renderEditor('/crm-mailing-detail/7');
      expect(await screen.findByRole('definition', { name: 'Recipients' })).toBeInTheDocument();
      expect(screen.getByText(/figures refresh every 5 seconds/)).toBeInTheDocument();
      const statsCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/crm-mailing/7/stats').length;
      expect(statsCalls()).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(5_100));
      await waitFor(() => expect(statsCalls()).toBe(2));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('CrmMailingTemplateEditor', () => {
  it('creates a template: "Template created", then its detail page', async () => {
    serve();
    renderEditor('/crm-mailing-template-add');
    await userEvent.type(screen.getByLabelText('Template name'), 'Newsletter');
    fireEvent.change(screen.getByLabelText('Body HTML'), { target: { value: '<h1>Newsletter</h1>' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Template created')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-mailing-template-detail/3'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(String(post[0])).toBe('/api/crm-mailing-template');
    expect(JSON.parse(String(post[1]!.body))).toEqual({ name: 'Newsletter', bodyHtml: '<h1>Newsletter</h1>' });
  });
});

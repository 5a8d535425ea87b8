import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSnacks } from '@/lib/notifications';
import { setClientTimeZone } from '@/lib/time-zone';
import { sent, sentOnce, settled } from '@/test/msw';
import { http, HttpResponse } from 'msw';
import { server } from '@/test/msw';
import { bodyOf, fillSetup, MAILING, renderEditor, serve, STATS, TEMPLATE } from '../testing/mailings-server';

// The editor's tests type into many fields: on a loaded machine they need more than the default 5 s.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => act(() => clearSnacks()));

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
    await settled();
    expect(sentOnce('POST', '/api/crm-mailing/send-to-my-inbox').body).toEqual({
      name: 'June appeal',
      subjectLine: 'Help us in June',
      senderId: 2,
      sendTime: new Date(2026, 5, 1, 9, 30).toISOString(),
      listId: 5,
      bodyHtml: '',
      previewText: '',
      mailingId: null,
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
    expect(await bodyOf('POST')).toEqual({
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
      respectCap: true,
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
    expect(await bodyOf('POST')).toMatchObject({
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
    expect(await bodyOf('PATCH')).toMatchObject({ isDraft: false, senderId: 2, listId: 5, sendTime: MAILING.sendTime!.replace('Z', '.000Z') });
    expect(await bodyOf('POST')).toBeUndefined();
  });

  it('deletes an editable mailing after confirmation', async () => {
    serve();
    renderEditor('/crm-mailing-detail/7');
    await screen.findByRole('heading', { name: 'June appeal' });
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-mailings'));
    expect(sent('/api/crm-mailing/7').some((r) => r.method === 'DELETE')).toBe(true);
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

  it('issue 31: the frequency cap is respected by default; an urgent mailing turns it off', async () => {
    serve();
    renderEditor('/crm-mailing-add');
    await fillSetup();
    const cap = screen.getByLabelText('Respect the frequency cap');
    expect(cap).toBeChecked();
    await userEvent.click(cap);
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByText('Ignored: everyone in the audience gets it')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save Draft' }));
    expect(await screen.findByText('Draft saved')).toBeInTheDocument();
    expect(await bodyOf('POST')).toMatchObject({ respectCap: false });
  });

  it('issue 31: a sent mailing says how many the frequency cap held back', async () => {
    serve(
      { ...MAILING, isDraft: false, sendAttempt: '2026-06-01T09:30:05Z', recipCount: 1231, delivery: 'done', heldBack: 3 },
      { ...STATS, heldBack: 3 },
    );
    renderEditor('/crm-mailing-detail/7');
    expect(await screen.findByRole('definition', { name: 'Held back' })).toHaveTextContent('3');
    expect(
      screen.getByText('3 held back by the frequency cap: they already had their e-mails for the day or week.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Respected')).toBeInTheDocument();
  });

  it('issue 27 item 14: Confirm warns how many recipients will see a merge tag blank, then confirms anyway', async () => {
    serve();
    const message =
      '312 recipients have no first name: they will see it blank. Add a default: {{First.Name|friend}}';
    server.use(
      http.post('/api/crm-mailing/merge-check', () =>
        HttpResponse.json({ recipients: 400, warnings: [{ tag: 'First.Name', missing: 312, message }] }),
      ),
    );
    renderEditor('/crm-mailing-detail/7');
    await screen.findByRole('heading', { name: 'June appeal' });
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    const check = sentOnce('POST', '/api/crm-mailing/merge-check');
    expect(check.url).toBe('/api/crm-mailing/merge-check?id=7');
    expect(check.body).toMatchObject({ isDraft: false, listId: 5 });
    expect(await bodyOf('PATCH')).toBeUndefined();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm anyway' }));
    expect(await screen.findByText('Mailing confirmed')).toBeInTheDocument();
    expect(await bodyOf('PATCH')).toMatchObject({ isDraft: false });
  });

  it('issue 27 item 14: a merge tag is inserted with the default typed beside the buttons', async () => {
    serve();
    renderEditor('/crm-mailing-add');
    await userEvent.click(screen.getByRole('tab', { name: 'HTML Editor' }));
    const tags = screen.getByRole('group', { name: 'Merge tags' });
    await userEvent.click(screen.getByRole('radio', { name: 'HTML source' }));
    const source = screen.getByLabelText('Body HTML');
    fireEvent.change(source, { target: { value: '<p>Hello </p>' } });
    (source as HTMLTextAreaElement).setSelectionRange(9, 9);
    fireEvent.select(source);
    await userEvent.type(within(tags).getByRole('textbox', { name: 'Merge tag default' }), 'friend');
    expect(within(tags).getByRole('button', { name: 'First.Name' })).toHaveAttribute('title', 'Insert {{First.Name|friend}}');
    await userEvent.click(within(tags).getByRole('button', { name: 'First.Name' }));
    expect(source).toHaveValue('<p>Hello {{First.Name|friend}}</p>');
  });

  it('issue 27 item 9: the send time says it is in the client\'s time zone', async () => {
    setClientTimeZone('America/Chicago');
    try {
      serve();
      renderEditor('/crm-mailing-add');
      expect(await screen.findByText("In America/Chicago, the client's time zone.")).toBeInTheDocument();
      expect(screen.getByLabelText('Send time')).toHaveAttribute('type', 'datetime-local');
    } finally {
      setClientTimeZone(undefined);
    }
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JourneyDetail, JourneySummary } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { errorReply, sentOnce, server, settled } from '@/test/msw';
import { renderWithDataRouter, renderWithProviders } from '@/test/utils';
import { JourneyDetailPage } from './journey-detail-page';
import { JourneyEditPage } from './journey-edit-page';
import { JourneysPage } from './journeys-page';

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(() => act(() => clearSnacks()));

const WELCOME: JourneySummary = {
  id: 5,
  name: 'Welcome series',
  status: 'active',
  version: 2,
  entered: 1200,
  active: 300,
  finished: 900,
  converted: 48,
  revenue_cents: 123450,
};

const DEFINITION = {
  triggers: [{ kind: 'form_signup', form_id: 3 }],
  reentry: { kind: 'never' },
  exit_on_gift: true,
  start: 'welcome',
  steps: [
    { id: 'welcome', kind: 'send', template_id: 4, subject: 'Welcome', on_cap: 'wait', next: 'ask2', x: 0, y: 0 },
    { id: 'ask2', kind: 'send', template_id: 4, subject: 'Second ask', on_cap: 'wait', next: null, x: 0, y: 120 },
  ],
};

function answerPickers() {
  server.use(
    http.get('*/api/crm-mailing-template', () => HttpResponse.json([])),
    http.get('*/api/crm-list', () => HttpResponse.json([])),
    http.get('*/api/selection/segment-names', () => HttpResponse.json([])),
    http.get('*/api/crm-form', () => HttpResponse.json([])),
    http.get('*/api/external-origin-code', () => HttpResponse.json([])),
  );
}

describe('JourneysPage', () => {
  it('lists each journey with its figures and pauses an active one', async () => {
    server.use(
      http.get('*/api/journeys', () => HttpResponse.json([WELCOME, { ...WELCOME, id: 6, name: 'Rescue', status: 'draft', revenue_cents: null }])),
      http.get('*/api/journeys/limits', () => HttpResponse.json({ per_day: 2, per_week: null })),
      http.post('*/api/journeys/5/pause', () => HttpResponse.json({ status: 'paused' })),
    );
    const user = userEvent.setup();
    renderWithProviders(<JourneysPage />);
    const row = await screen.findByRole('row', { name: /Welcome series/ });
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual([
      'Welcome series',
      'Active',
      '2',
      '1,200',
      '300',
      '900',
      '48',
      '$1,234.50',
      'PauseArchive',
    ]);
    expect(within(screen.getByRole('row', { name: /Rescue/ })).getAllByRole('cell')[7]).toHaveTextContent('—');
    expect(screen.getByRole('link', { name: 'New journey' })).toHaveAttribute('href', '/journeys/new');
    expect(await screen.findByLabelText('E-mails per contact per day')).toHaveValue(2);
    await user.click(within(row).getByRole('button', { name: 'Pause Welcome series' }));
    expect(await screen.findByText('Journey paused')).toBeInTheDocument();
    sentOnce('POST', '/api/journeys/5/pause');
  });
});

describe('JourneyEditPage', () => {
  it('saves a new version and shows the refusal that names the step', async () => {
    answerPickers();
    const detail: JourneyDetail = {
      id: 5,
      name: 'Welcome series',
      status: 'active',
      version: 2,
      definition: DEFINITION,
      versions: [
        { version: 1, created_at: '2026-11-01T10:00:00Z', active: true },
        { version: 2, created_at: '2026-11-20T10:00:00Z', active: true },
      ],
    };
    server.use(
      http.get('*/api/journeys/5', () => HttpResponse.json(detail)),
      http.put('*/api/journeys/5', () => errorReply('Step "ask2" uses template 4, which does not exist.', 400)),
    );
    const user = userEvent.setup();
    renderWithDataRouter([{ path: '/journeys/:id/edit', element: <JourneyEditPage id={5} /> }], {
      route: '/journeys/5/edit',
    });
    expect(await screen.findByText(/Saving makes version 3/)).toBeInTheDocument();
    expect(screen.getByTestId('step-ask2')).toHaveTextContent('Second ask');
    await user.click(screen.getByRole('button', { name: 'Save journey' }));
    expect(await screen.findByRole('alert', { name: 'Save error' })).toHaveTextContent(
      'Step "ask2" uses template 4, which does not exist.',
    );
    await settled();
    // The definition goes back as it came (the builder keeps what it does not change).
    expect(sentOnce('PUT', '/api/journeys/5').body).toEqual({ name: 'Welcome series', definition: DEFINITION });
  });
});

describe('JourneyEditPage: unsaved changes (issue 31)', () => {
  const routes = [
    { path: '/journeys/new', element: <JourneyEditPage /> },
    { path: '/journeys', element: <p>All journeys</p> },
    { path: '/journeys/:id', element: <p>The saved journey</p> },
  ];
  const unloadPrevented = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('asks before a link leaves unsaved edits, and the browser asks before the tab closes', async () => {
    answerPickers();
    const user = userEvent.setup();
    renderWithDataRouter(routes, { route: '/journeys/new' });
    expect(unloadPrevented()).toBe(false);
    await user.type(screen.getByLabelText('Journey name'), 'Welcome');
    expect(unloadPrevented()).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Journeys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('Journey name')).toHaveValue('Welcome');

    await user.click(screen.getByRole('link', { name: 'Journeys' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByText('All journeys')).toBeInTheDocument();
    expect(unloadPrevented()).toBe(false);
  });

  it('leaves without asking when nothing changed, and after a save', async () => {
    answerPickers();
    server.use(http.post('*/api/journeys', () => HttpResponse.json({ id: 9 }, { status: 201 })));
    const user = userEvent.setup();
    const { router } = renderWithDataRouter(routes, { route: '/journeys/new' });
    await user.click(screen.getByRole('link', { name: 'Journeys' }));
    expect(await screen.findByText('All journeys')).toBeInTheDocument();

    await act(() => router.navigate('/journeys/new'));
    await user.type(await screen.findByLabelText('Journey name'), 'Welcome');
    await user.click(screen.getByRole('button', { name: 'Save journey' }));
    expect(await screen.findByText('The saved journey')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('JourneyDetailPage', () => {
  it('shows the figures of the journey and of each step, in drawing order, and on the flow', async () => {
    answerPickers();
    server.use(
      http.get('*/api/journeys/5', () =>
        HttpResponse.json({
          id: 5,
          name: 'Welcome series',
          status: 'paused',
          version: 1,
          definition: DEFINITION,
          versions: [{ version: 1, created_at: '2026-11-01T10:00:00Z', active: true }],
        }),
      ),
      http.get('*/api/journeys/5/figures', () =>
        HttpResponse.json({
          version: 1,
          entered: 40,
          active: 10,
          finished: 30,
          converted: 4,
          revenue_cents: 25000,
          weeks: [],
          steps: [
            {
              step_id: 'ask2', reached: 20, sent: 19, delivered: 18, human_opens: 7, clicks: 3, unsubscribes: 1, gifts: 2, revenue_cents: 15000, rpm_cents: 833333,
              variants: [
                { variant: 'A', recipients: 10, delivered: 10, human_opens: 5, clicks: 2, gifts: 2, revenue_cents: 15000, rpm_cents: 1500000 },
                { variant: 'B', recipients: 9, delivered: 8, human_opens: 2, clicks: 1, gifts: 0, revenue_cents: 0, rpm_cents: 0 },
              ],
            },
            {
              step_id: 'welcome', reached: 40, sent: 40, delivered: 40, human_opens: 22, clicks: 9, unsubscribes: 0, gifts: 2, revenue_cents: 10000, rpm_cents: 250000,
              variants: [{ variant: 'A', recipients: 40, delivered: 40, human_opens: 22, clicks: 9, gifts: 2, revenue_cents: 10000, rpm_cents: 250000 }],
            },
          ],
        }),
      ),
    );
    renderWithProviders(<JourneyDetailPage id={5} />);
    expect(await screen.findByTestId('tile-Entered')).toHaveTextContent('40');
    expect(screen.getByTestId('tile-Revenue')).toHaveTextContent('$250.00');
    expect(screen.getByRole('button', { name: 'Activate Welcome series' })).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Step figures' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'welcomeSend an e-mail40404022902$100.00$2,500.00',
      'ask2Send an e-mail2019187312$150.00$8,333.33',
    ]);
    expect(screen.getByTestId('step-counts-ask2')).toHaveTextContent('Reached 20 · Sent 19');
    // Only the step that mails in variants has rows by variant.
    const variants = within(screen.getByRole('table', { name: 'Variant figures' })).getAllByRole('row').slice(1);
    expect(variants.map((r) => r.textContent)).toEqual([
      'ask2A1010522$150.00$15,000.00',
      'ask2B98210$0.00$0.00',
    ]);
    sentOnce('GET', '/api/journeys/5/figures');
    expect(screen.getByText('Nobody has entered yet.')).toBeInTheDocument();
  });
});

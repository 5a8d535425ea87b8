import { useState } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { emptyDefinition } from '../definition';
import type { JourneyDefinition } from '../types';
import { JourneyBuilder } from './journey-builder';

beforeAll(() => {
  // jsdom lays nothing out; the flow library watches its boxes' sizes.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

let latest: JourneyDefinition = emptyDefinition();

function Harness() {
  const [definition, setDefinition] = useState(emptyDefinition());
  const change = (next: JourneyDefinition) => {
    latest = next;
    setDefinition(next);
  };
  return <JourneyBuilder definition={definition} onChange={change} />;
}

function answerPickers() {
  const at = '2026-01-01T00:00:00Z';
  server.use(
    http.get('*/api/crm-mailing-template', () =>
      HttpResponse.json([{ id: 4, name: 'Welcome', bodyHtml: '', created: at, updated: at }]),
    ),
    http.get('*/api/crm-list', () => HttpResponse.json([{ id: 7, name: 'Newsletter', count: 3, created: at, kind: 'static', originCodes: [] }])),
    http.get('*/api/selection/segment-names', () => HttpResponse.json([{ id: 2, label: 'Donors' }])),
    http.get('*/api/crm-form', () =>
      HttpResponse.json([
        { id: 3, name: 'Petition', bodyHtml: '', enabled: true, submissionCount: 0, submissions: 0, viewCount: 0, style: {}, created: at, updated: at },
      ]),
    ),
    http.get('*/api/external-origin-code', () => HttpResponse.json([])),
  );
}

describe('JourneyBuilder', () => {
  it('builds a welcome series from the panels: trigger, send with a merge tag, wait, second send', async () => {
    answerPickers();
    const user = userEvent.setup();
    renderWithProviders(<Harness />);

    // Start is chosen first: the journey's triggers.
    await user.click(screen.getByRole('button', { name: 'Add trigger' }));
    await screen.findByRole('option', { name: 'Petition' });
    await user.selectOptions(screen.getByLabelText('Form'), 'Petition');
    expect(latest.triggers).toEqual([{ kind: 'form_signup', form_id: 3 }]);
    expect(screen.getByRole('alert', { name: 'Problems' })).toHaveTextContent('A journey needs at least one step.');

    await user.click(screen.getByRole('button', { name: 'Add step' }));
    await user.click(screen.getByRole('button', { name: 'Send an e-mail' }));
    const panel = screen.getByRole('region', { name: 'Step send1' });
    await user.selectOptions(within(panel).getByLabelText('Template'), 'Welcome');
    await user.type(within(panel).getByLabelText('Subject'), 'Welcome, ');
    await user.click(within(panel).getByRole('button', { name: 'Insert {{First.Name}}' }));

    // Add a wait after it, then a send after the wait, from the step panels.
    await user.selectOptions(within(panel).getByLabelText('Kind'), 'Wait');
    await user.click(within(panel).getByRole('button', { name: 'Add step' }));
    const wait = screen.getByRole('region', { name: 'Step wait1' });
    await user.clear(within(wait).getByLabelText('Hours to wait'));
    await user.type(within(wait).getByLabelText('Hours to wait'), '48');
    expect(within(wait).getByText('2 days')).toBeInTheDocument();
    await user.click(within(wait).getByRole('button', { name: 'Add step' }));
    const ask = screen.getByRole('region', { name: 'Step send2' });
    await user.selectOptions(within(ask).getByLabelText('Template'), 'Welcome');
    await user.type(within(ask).getByLabelText('Subject'), 'Will you chip in?');

    expect(latest).toMatchObject({
      start: 'send1',
      steps: [
        { id: 'send1', kind: 'send', template_id: 4, subject: 'Welcome, {{First.Name}}', next: 'wait1' },
        { id: 'wait1', kind: 'wait', hours: 48, next: 'send2' },
        { id: 'send2', kind: 'send', template_id: 4, subject: 'Will you chip in?', next: null },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Problems' })).not.toBeInTheDocument());
    // The flow draws a box per step with its summary.
    expect(screen.getByTestId('step-wait1')).toHaveTextContent('2 days');

    // Renaming a step renames the references; removing the wait joins the sends.
    const name = within(ask).getByLabelText('Step name');
    await user.clear(name);
    await user.type(name, 'ask');
    await user.tab();
    expect(latest.steps.find((s) => s.id === 'wait1')).toMatchObject({ next: 'ask' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Then' }), 'wait1');
    // A click on a box chooses it (a plain click: jsdom has no window for the library's drag start).
    fireEvent.click(screen.getByTestId('step-wait1'));
    await user.click(within(screen.getByRole('region', { name: 'Step wait1' })).getByRole('button', { name: 'Remove step' }));
    expect(latest.steps.map((s) => [s.id, 'next' in s ? s.next : undefined])).toEqual([
      ['send1', 'ask'],
      ['ask', null],
    ]);
  });

  it('writes a send step\'s own body with a variant B of its own subject, and says what is missing', async () => {
    answerPickers();
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Add step' }));
    await user.click(screen.getByRole('button', { name: 'Send an e-mail' }));
    const panel = screen.getByRole('region', { name: 'Step send1' });
    await user.selectOptions(within(panel).getByLabelText('Body'), 'Written here');
    expect(within(panel).queryByLabelText('Template')).not.toBeInTheDocument();
    await user.type(within(panel).getByLabelText('Subject'), 'Chip in');
    expect(screen.getByRole('alert', { name: 'Problems' })).toHaveTextContent('Step "send1" needs a body.');
    fireEvent.change(within(panel).getByLabelText('Body (HTML)'), { target: { value: '<p>Dear {{First.Name}},</p>' } });

    await user.click(within(panel).getByRole('button', { name: 'Add variant B' }));
    const b = within(panel).getByRole('group', { name: 'Variant B' });
    expect(screen.getByRole('alert', { name: 'Problems' })).toHaveTextContent(
      'Variant B of step "send1" needs its own subject (at most 300 characters) or body.',
    );
    await user.type(within(b).getByLabelText("Subject (empty: the step's)"), 'Will you chip in?');
    expect(latest.steps[0]).toMatchObject({
      kind: 'send',
      template_id: null,
      subject: 'Chip in',
      body_html: '<p>Dear {{First.Name}},</p>',
      variants: [{ subject: 'Will you chip in?' }],
    });
    expect(screen.getByTestId('step-send1')).toHaveTextContent('Chip in · its own body · 2 variants');

    await user.click(within(b).getByRole('button', { name: 'Remove variant B' }));
    expect(latest.steps[0]).toMatchObject({ variants: [] });
    // Back to a template: the body goes.
    await user.selectOptions(within(panel).getByLabelText('Body'), 'From a template');
    expect(latest.steps[0]).not.toHaveProperty('body_html', expect.anything());
    expect(screen.getByRole('alert', { name: 'Problems' })).toHaveTextContent('Step "send1" needs a template.');
  });
});

import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FormView } from '@/api/gen/model';
import { sent, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { FormViewer } from './form-viewer';

const VIEW: FormView = {
  id: 5,
  name: 'Spring signup',
  bodyHtml: '<form id="signup"><input type="email" name="email" aria-label="Your email"><button type="submit">Join</button></form>',
  style: {},
};

function serve({ view = VIEW, submit }: { view?: FormView | null; submit?: () => Response } = {}) {
  server.use(
    http.get('/api/crm-form/5/viewer', () =>
      view ? HttpResponse.json(view) : HttpResponse.json({ message: 'This form is not available' }, { status: 404 }),
    ),
    http.post('/api/crm-form/5/view', () => new HttpResponse(null, { status: 204 })),
    http.post('/api/crm-form/5/submit', () =>
      submit ? submit() : HttpResponse.json({ message: 'Thank you for signing up.' }),
    ),
  );
}

const submits = () => sent('/api/crm-form/5/submit');

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

async function fillAndSubmit(email: string) {
  const input = await screen.findByLabelText('Your email');
  fireEvent.change(input, { target: { value: email } });
  fireEvent.submit(input.closest('form')!);
}

describe('FormViewer', () => {
  it('loads the form with client-short, records one view and renders the body', async () => {
    serve();
    renderWithProviders(<FormViewer id={5} client="demo" onRedirect={vi.fn()} />);
    expect(await screen.findByRole('button', { name: 'Join' })).toBeInTheDocument();
    const viewer = sent('/api/crm-form/5/viewer')[0];
    expect(viewer.headers.get('client-short')).toBe('demo');
    await vi.waitFor(() => expect(sent('/api/crm-form/5/view')).toHaveLength(1));
    const view = sent('/api/crm-form/5/view')[0];
    expect(view.headers.get('client-short')).toBe('demo');
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('binds submit after 1000 ms and posts {email, website}, then thanks the visitor', async () => {
    serve();
    const onRedirect = vi.fn();
    renderWithProviders(<FormViewer id={5} client="demo" onRedirect={onRedirect} />);
    await fillAndSubmit('early@example.org');
    expect(submits()).toHaveLength(0);

    act(() => {
      vi.advanceTimersByTime(1000);
    });
    await fillAndSubmit('vera@example.org');
    expect(await screen.findByText('Thank you for signing up.')).toBeInTheDocument();
    expect(submits()).toHaveLength(1);
    await settled();
    const post = submits()[0];
    expect(post.body).toEqual({ email: 'vera@example.org', website: '' });
    expect(post.headers.get('client-short')).toBe('demo');
    expect(onRedirect).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Join' })).not.toBeInTheDocument();
  });

  it('goes to the redirect address when the server names one', async () => {
    serve({ submit: () => HttpResponse.json({ message: 'ok', redirect_url: 'https://example.org/thanks' }) });
    const onRedirect = vi.fn();
    renderWithProviders(<FormViewer id={5} client="demo" onRedirect={onRedirect} />);
    await screen.findByLabelText('Your email');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    await fillAndSubmit('vera@example.org');
    await vi.waitFor(() => expect(onRedirect).toHaveBeenCalledWith('https://example.org/thanks'));
    expect(screen.queryByText('Thank you for signing up.')).not.toBeInTheDocument();
  });

  it('shows the server message next to the form on 400', async () => {
    serve({ submit: () => HttpResponse.json({ message: 'Enter a valid email address' }, { status: 400 }) });
    renderWithProviders(<FormViewer id={5} client="demo" onRedirect={vi.fn()} />);
    await screen.findByLabelText('Your email');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    await fillAndSubmit('nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid email address');
    expect(screen.getByRole('button', { name: 'Join' })).toBeInTheDocument();
  });

  it('shows "This form is not available." for a disabled or unknown form', async () => {
    serve({ view: null });
    renderWithProviders(<FormViewer id={5} client="demo" />);
    expect(await screen.findByText('This form is not available.')).toBeInTheDocument();
    expect(sent('/api/crm-form/5/view')).toHaveLength(0);
  });

  it('shows "This form is not available." without id or client', () => {
    renderWithProviders(<FormViewer id={null} client="demo" />);
    expect(screen.getByText('This form is not available.')).toBeInTheDocument();
    expect(sent()).toHaveLength(0);
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { Form } from '@/api/gen/model';
import { sent, sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { CrmFormEditor } from './crm-form-editor';
import { FormViewer } from './form-viewer';
import { applyButtonText, readableOn } from './styled-form';

const FORM: Form = {
  id: 9,
  name: 'Spring signup',
  bodyHtml: '<form><label for="e">Email</label><input id="e" type="email" name="email"><button type="submit">Join</button></form>',
  enabled: true,
  externalOriginCodeId: 4,
  originCodeName: 'spring-form',
  redirect_url: null,
  submissionCount: 0,
  submissions: 0,
  viewCount: 0,
  created: '2026-03-04T10:20:30Z',
  updated: '2026-03-04T10:20:30Z',
  style: { primaryColor: '#1a7f37', backgroundColor: null, logoUrl: 'https://cdn.example.org/logo.png', buttonText: 'Count me in' },
};

const previewDoc = () => screen.getByTitle<HTMLIFrameElement>('Style preview').contentDocument!;

describe('the form style', () => {
  it('labels every submit button with the button text and leaves the body alone without one', () => {
    const html = '<form><button type="submit">Join</button><input type="submit" value="Go"></form>';
    expect(applyButtonText(html, '  ')).toBe(html);
    const labelled = new DOMParser().parseFromString(applyButtonText(html, 'Sign me up'), 'text/html');
    expect(labelled.querySelector('button')?.textContent).toBe('Sign me up');
    expect(labelled.querySelector('input')?.getAttribute('value')).toBe('Sign me up');
  });

  it('writes white on dark colours and black on light ones', () => {
    expect(readableOn('#0b5ed7')).toBe('#ffffff');
    expect(readableOn('#1a7f37')).toBe('#ffffff');
    expect(readableOn('#ffd43b')).toBe('#000000');
  });

  it('the editor previews the real rendering, follows the style fields and refuses a bad colour', async () => {
    server.use(
      http.all('/api/crm-form/9', () => HttpResponse.json(FORM)),
      http.all('/auth-api/session/me', () => HttpResponse.json({ permissions: [], universalPermissions: [] })),
      http.all('*', () => HttpResponse.json([])),
    );
    renderWithProviders(
      <Routes>
        <Route path="/crm-form-detail/:id" element={<CrmFormEditor id={9} />} />
      </Routes>,
      { route: '/crm-form-detail/9' },
    );
    await userEvent.click(await screen.findByRole('tab', { name: 'Style' }));
    await waitFor(() => expect(previewDoc().querySelector('h1')).toHaveTextContent('Spring signup'));
    const page = previewDoc().querySelector<HTMLElement>('.styled-form-page')!;
    expect(previewDoc().querySelector('main')).not.toBeNull();
    expect(previewDoc().querySelector('.styled-form-body button')).toHaveTextContent('Count me in');
    expect(previewDoc().querySelector('img')).toHaveAttribute('src', 'https://cdn.example.org/logo.png');
    expect(page.style.getPropertyValue('--form-primary')).toBe('#1a7f37');

    const primary = screen.getByLabelText('Primary colour');
    await userEvent.clear(primary);
    await userEvent.type(primary, '#7b2cbf');
    await userEvent.clear(screen.getByLabelText('Button text'));
    await userEvent.type(screen.getByLabelText('Button text'), 'Stand with us');
    expect(page.style.getPropertyValue('--form-primary')).toBe('#7b2cbf');
    expect(previewDoc().querySelector('.styled-form-body button')).toHaveTextContent('Stand with us');

    await userEvent.clear(primary);
    await userEvent.type(primary, 'purple');
    expect(screen.getByText('Enter a colour like #1a73e8, or leave it empty.')).toBeVisible();
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await userEvent.click(screen.getByRole('tab', { name: 'Style' }));
    await userEvent.clear(primary);
    await userEvent.type(primary, '#7B2CBF');
    await userEvent.click(screen.getByRole('tab', { name: 'Confirm' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent().some((r) => r.method === 'PATCH')).toBe(true));
    await settled();
    expect((sentOnce('PATCH').body as Form).style).toEqual({
      primaryColor: '#7B2CBF',
      backgroundColor: null,
      logoUrl: 'https://cdn.example.org/logo.png',
      buttonText: 'Stand with us',
    });
  });

  it('the public viewer shows the logo, the name as its heading inside main, and the button text', async () => {
    server.use(
      http.all('/api/crm-form/9/viewer', () => HttpResponse.json({ ...FORM, redirect_url: null })),
      http.all('*', () => new HttpResponse(null, { status: 204 })),
    );
    renderWithProviders(<FormViewer id={9} client="demo" onRedirect={vi.fn()} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Spring signup' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toContainElement(screen.getByRole('button', { name: 'Count me in' }));
    expect(screen.getByRole('img', { name: 'Spring signup logo' })).toHaveAttribute('src', 'https://cdn.example.org/logo.png');
    expect(main.parentElement!.style.getPropertyValue('--form-primary')).toBe('#1a7f37');
  });
});

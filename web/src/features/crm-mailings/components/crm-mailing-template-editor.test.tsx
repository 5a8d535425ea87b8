import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSnacks } from '@/lib/notifications';
import { sentOnce, settled } from '@/test/msw';
import { renderEditor, serve } from '../testing/mailings-server';

afterEach(() => act(() => clearSnacks()));

describe('CrmMailingTemplateEditor', () => {
  it('creates a template: "Template created", then its detail page', async () => {
    serve();
    renderEditor('/crm-mailing-template-add');
    await userEvent.type(screen.getByLabelText('Template name'), 'Newsletter');
    fireEvent.change(screen.getByLabelText('Body HTML'), { target: { value: '<h1>Newsletter</h1>' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Template created')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/crm-mailing-template-detail/3'));
    await settled();
    const post = sentOnce('POST');
    expect(post.url).toBe('/api/crm-mailing-template');
    expect(post.body).toEqual({ name: 'Newsletter', bodyHtml: '<h1>Newsletter</h1>' });
  });
});

import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryWebhook, DeliveryWebhooks } from '@/api/gen/model';
import { clearSnacks } from '@/lib/notifications';
import { sentOnce, server, settled } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { DeliveryWebhooksCard } from './delivery-webhooks-card';

const hook = (provider: string, more: Partial<DeliveryWebhook> = {}): DeliveryWebhook => ({
  provider,
  enabled: false,
  path: `/api/webhooks/delivery/${provider}/demo`,
  postmarkPasswordSet: false,
  mailgunSigningKeySet: false,
  sesTopicArns: [],
  ...more,
});

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:ses-feedback';
const HOOKS: DeliveryWebhooks = {
  providers: [hook('ses', { enabled: true, sesTopicArns: [TOPIC] }), hook('sendgrid'), hook('postmark'), hook('mailgun')],
  sesSubscriptions: [
    {
      topicArn: TOPIC,
      subscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=abc',
      receivedAt: '2026-11-26T12:00:00Z',
    },
  ],
  sesCertificatesPinned: true,
};

afterEach(() => act(() => clearSnacks()));

describe('DeliveryWebhooksCard', () => {
  it("shows each relay's address, whether it is on, and the SNS subscription to confirm", async () => {
    server.use(http.get('/api/delivery-webhooks', () => HttpResponse.json(HOOKS)));
    renderWithProviders(<DeliveryWebhooksCard />);
    const ses = await screen.findByRole('form', { name: 'Amazon SES webhook' });
    expect(within(ses).getByLabelText('Webhook address')).toHaveValue(
      `${window.location.origin}/api/webhooks/delivery/ses/demo`,
    );
    expect(within(ses).getByText('On')).toBeInTheDocument();
    expect(within(ses).getByLabelText('SNS topic ARNs (one a line)')).toHaveValue(TOPIC);
    expect(within(ses).getByRole('link', { name: 'Confirm subscription' })).toHaveAttribute(
      'href',
      HOOKS.sesSubscriptions[0]!.subscribeUrl,
    );
    const mailgun = screen.getByRole('form', { name: 'Mailgun webhook' });
    expect(within(mailgun).getByLabelText('Webhook address')).toHaveValue(
      `${window.location.origin}/api/webhooks/delivery/mailgun/demo`,
    );
    expect(within(mailgun).getByText('Off')).toBeInTheDocument();
    expect(within(mailgun).getByRole('button', { name: 'Turn on Mailgun webhook' })).toBeDisabled();
  });

  it('turns on Postmark with a user name and password, and never shows the password again', async () => {
    server.use(
      http.get('/api/delivery-webhooks', () => HttpResponse.json(HOOKS)),
      http.patch('/api/delivery-webhooks/postmark', () =>
        HttpResponse.json({
          ...HOOKS,
          providers: HOOKS.providers.map((p) =>
            p.provider === 'postmark' ? { ...p, enabled: true, postmarkUsername: 'postmark', postmarkPasswordSet: true } : p,
          ),
        }),
      ),
    );
    renderWithProviders(<DeliveryWebhooksCard />);
    const postmark = await screen.findByRole('form', { name: 'Postmark webhook' });
    const turnOn = within(postmark).getByRole('button', { name: 'Turn on Postmark webhook' });
    await userEvent.type(within(postmark).getByLabelText('User name'), 'postmark');
    await userEvent.type(within(postmark).getByLabelText('Password'), 'too-short');
    expect(turnOn).toBeDisabled();
    expect(within(postmark).getByText('The webhook password needs at least 12 characters')).toBeInTheDocument();
    await userEvent.type(within(postmark).getByLabelText('Password'), '-but-now-long');
    await userEvent.click(turnOn);
    expect(await screen.findByText('Postmark webhook on')).toBeInTheDocument();
    await settled();
    expect(sentOnce('PATCH').body).toEqual({
      postmarkUsername: 'postmark',
      postmarkPassword: 'too-short-but-now-long',
      enabled: true,
    });
    expect(within(postmark).getByLabelText('New password')).toHaveValue('');
    expect(within(postmark).getByText('On')).toBeInTheDocument();
  });
});

import { useState, type FormEvent, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { getGetDeliveryWebhooksQueryKey, useGetDeliveryWebhooks, useUpdateDeliveryWebhook } from '@/api/gen';
import type { DeliveryWebhook, DeliveryWebhookUpdate, DeliveryWebhooks } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';

const MIN_PASSWORD = 12;

const NAMES: Record<string, string> = {
  ses: 'Amazon SES',
  sendgrid: 'SendGrid',
  postmark: 'Postmark',
  mailgun: 'Mailgun',
};

const WHERE: Record<string, string> = {
  ses: 'In Amazon SNS, subscribe this address (HTTPS) to the topic SES sends bounces and complaints to.',
  sendgrid: 'In SendGrid, Mail Settings › Event Webhook: paste this address, turn on Signed Event Webhook and copy its verification key here.',
  postmark: 'In Postmark, Webhooks › Add webhook: paste this address, tick Bounce, Spam complaint and Delivery, and set the same user name and password under Basic auth.',
  mailgun: 'In Mailgun, Sending › Webhooks: paste this address for Permanent failure, Temporary failure, Spam complaints and Delivered; copy the HTTP webhook signing key here.',
};

/**
 * Where each relay (SES, SendGrid, Postmark, Mailgun) reports bounces and complaints, and the credentials it proves
 * itself with. Secrets are never shown again once saved.
 */
export function DeliveryWebhooksCard() {
  const hooks = useGetDeliveryWebhooks({ query: { meta: { errorMessage: 'Could not load the delivery webhooks' } } });
  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="h5">
        Delivery webhooks
      </Card.Header>
      <Card.Body>
        <p>Relays report bounces and spam complaints here. Bounced and complaining addresses are suppressed at once.</p>
        {hooks.isPending ? (
          <PageSpinner label="Loading delivery webhooks" />
        ) : hooks.isError ? (
          <Alert variant="danger">Could not load the delivery webhooks</Alert>
        ) : (
          hooks.data.providers.map((hook) => <ProviderForm key={hook.provider} hook={hook} all={hooks.data} />)
        )}
      </Card.Body>
    </Card>
  );
}

function ProviderForm({ hook, all }: { hook: DeliveryWebhook; all: DeliveryWebhooks }) {
  const queryClient = useQueryClient();
  const name = NAMES[hook.provider] ?? hook.provider;
  const id = (field: string) => `${hook.provider}-webhook-${field}`;
  const url = `${window.location.origin}${hook.path}`;
  const [username, setUsername] = useState(hook.postmarkUsername ?? '');
  const [secret, setSecret] = useState('');
  const [publicKey, setPublicKey] = useState(hook.sendgridPublicKey ?? '');
  const [topics, setTopics] = useState(hook.sesTopicArns.join('\n'));
  const update = useUpdateDeliveryWebhook({
    mutation: {
      meta: { errorMessage: `Could not update the ${name} webhook` },
      onSuccess: (saved) => {
        queryClient.setQueryData(getGetDeliveryWebhooksQueryKey(), saved);
        setSecret('');
        const now = saved.providers.find((p) => p.provider === hook.provider);
        notifySuccess(now?.enabled ? `${name} webhook on` : `${name} webhook off`);
      },
    },
  });

  const topicList = topics
    .split('\n')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  let data: DeliveryWebhookUpdate | null = null;
  let fields: ReactNode = null;
  switch (hook.provider) {
    case 'ses':
      data = topicList.length > 0 ? { sesTopicArns: topicList } : null;
      fields = (
        <Field
          id={id('topics')}
          label="SNS topic ARNs (one a line)"
          as="textarea"
          rows={2}
          value={topics}
          onChange={(e) => setTopics(e.target.value)}
        />
      );
      break;
    case 'sendgrid':
      data = publicKey.trim() !== '' ? { sendgridPublicKey: publicKey.trim() } : null;
      fields = (
        <Field
          id={id('key')}
          label="Verification key"
          as="textarea"
          rows={2}
          value={publicKey}
          onChange={(e) => setPublicKey(e.target.value)}
        />
      );
      break;
    case 'postmark': {
      const short = secret !== '' && secret.length < MIN_PASSWORD;
      const keepPassword = secret === '' && hook.postmarkPasswordSet;
      data =
        username.trim() !== '' && (keepPassword || (secret !== '' && !short))
          ? { postmarkUsername: username.trim(), ...(secret !== '' ? { postmarkPassword: secret } : {}) }
          : null;
      fields = (
        <>
          <Field id={id('username')} label="User name" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
          <Field
            id={id('password')}
            label={hook.postmarkPasswordSet ? 'New password' : 'Password'}
            type="password"
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="new-password"
            invalid={short}
            error={`The webhook password needs at least ${MIN_PASSWORD} characters`}
          />
        </>
      );
      break;
    }
    case 'mailgun':
      data = secret.trim() !== '' ? { mailgunSigningKey: secret.trim() } : hook.mailgunSigningKeySet ? {} : null;
      fields = (
        <Field
          id={id('key')}
          label={hook.mailgunSigningKeySet ? 'New signing key' : 'HTTP webhook signing key'}
          type="password"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          autoComplete="off"
        />
      );
      break;
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (data) update.mutate({ provider: hook.provider, data: { ...data, enabled: true } });
  };
  const turnOff = () => update.mutate({ provider: hook.provider, data: { enabled: false } });
  const pending = hook.provider === 'ses' ? all.sesSubscriptions.filter((s) => !s.confirmedAt) : [];

  return (
    <Form onSubmit={onSubmit} noValidate aria-label={`${name} webhook`} className="border-top pt-3 mb-3">
      <h3 className="h6">
        {name} <span className={hook.enabled ? 'text-success' : 'text-body-secondary'}>{hook.enabled ? 'On' : 'Off'}</span>
      </h3>
      <Field
        id={id('url')}
        label="Webhook address"
        value={url}
        readOnly
        after={
          <Button variant="outline-secondary" onClick={() => void navigator.clipboard?.writeText(url)}>
            Copy
          </Button>
        }
        hint={<Form.Text>{WHERE[hook.provider]}</Form.Text>}
      />
      {fields}
      {pending.map((s) => (
        <Alert key={s.topicArn} variant="info">
          SNS asks to confirm the subscription of {s.topicArn}.{' '}
          {all.sesCertificatesPinned ? 'Open this address once to confirm it: ' : 'Compass confirms it; if it stays here, open: '}
          <a href={s.subscribeUrl} target="_blank" rel="noreferrer">
            Confirm subscription
          </a>
        </Alert>
      ))}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={update.isPending || data === null}>
          {hook.enabled ? `Save ${name} webhook` : `Turn on ${name} webhook`}
        </Button>
        {hook.enabled && (
          <Button variant="outline-danger" onClick={turnOff} disabled={update.isPending}>
            Turn off
          </Button>
        )}
      </div>
    </Form>
  );
}

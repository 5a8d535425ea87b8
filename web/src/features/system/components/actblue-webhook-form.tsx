import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useQueryClient } from '@tanstack/react-query';
import { getGetAppSettingsQueryKey, useUpdateAppSettings } from '@/api/gen';
import type { AppSettings } from '@/api/gen/model';
import { notifySuccess } from '@/lib/notifications';

const MIN_PASSWORD = 12;

/**
 * The HTTP Basic credentials ActBlue sends with each contribution webhook. The password is stored hashed and never
 * shown again; the address to paste into ActBlue's webhook form is shown with them.
 */
export function ActblueWebhookForm({ settings }: { settings: AppSettings }) {
  const queryClient = useQueryClient();
  const [username, setUsername] = useState(settings.actblueWebhookUsername ?? '');
  const [password, setPassword] = useState('');
  const url = `${window.location.origin}/api/webhooks/actblue/${settings.client_short}`;
  const update = useUpdateAppSettings({
    mutation: {
      meta: { errorMessage: 'Could not update the webhook' },
      onSuccess: (saved) => {
        queryClient.setQueryData(getGetAppSettingsQueryKey(), saved);
        setPassword('');
        notifySuccess(saved.actblueWebhookPasswordSet ? 'Webhook credentials saved' : 'Webhook turned off');
      },
    },
  });

  const userMissing = username.trim() === '';
  const passwordShort = password.length < MIN_PASSWORD;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (userMissing || passwordShort) return;
    update.mutate({ id: settings.id, data: { actblueWebhookUsername: username.trim(), actblueWebhookPassword: password } });
  };
  const turnOff = () => update.mutate({ id: settings.id, data: { actblueWebhookUsername: '' } });

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="ActBlue webhook">
      <Form.Group className="mb-3" controlId="actblue-webhook-url">
        <Form.Label>Webhook address</Form.Label>
        <InputGroup>
          <Form.Control value={url} readOnly />
          <Button variant="outline-secondary" onClick={() => void navigator.clipboard?.writeText(url)}>
            Copy
          </Button>
        </InputGroup>
        <Form.Text>
          {settings.actblueWebhookPasswordSet
            ? `On: ActBlue signs in as ${settings.actblueWebhookUsername ?? ''}.`
            : 'Off: set a user name and password, then enter the same ones in ActBlue.'}
        </Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="actblue-webhook-username">
        <Form.Label>User name</Form.Label>
        <Form.Control value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
      </Form.Group>
      <Form.Group className="mb-3" controlId="actblue-webhook-password">
        <Form.Label>{settings.actblueWebhookPasswordSet ? 'New password' : 'Password'}</Form.Label>
        <Form.Control
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          isInvalid={password !== '' && passwordShort}
        />
        <Form.Control.Feedback type="invalid">
          The webhook password needs at least {MIN_PASSWORD} characters
        </Form.Control.Feedback>
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={update.isPending || userMissing || passwordShort}>
          Save webhook credentials
        </Button>
        {settings.actblueWebhookPasswordSet && (
          <Button variant="outline-danger" onClick={turnOff} disabled={update.isPending}>
            Turn off
          </Button>
        )}
      </div>
    </Form>
  );
}

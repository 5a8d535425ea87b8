import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { getGetAppSettingsQueryKey, useUpdateAppSettings } from '@/api/gen';
import type { AppSettings } from '@/api/gen/model';
import { Field } from '@/components/form/field';
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
      <Field
        id="actblue-webhook-url"
        label="Webhook address"
        value={url}
        readOnly
        after={
          <Button variant="outline-secondary" onClick={() => void navigator.clipboard?.writeText(url)}>
            Copy
          </Button>
        }
        hint={
          <Form.Text>
            {settings.actblueWebhookPasswordSet
              ? `On: ActBlue signs in as ${settings.actblueWebhookUsername ?? ''}.`
              : 'Off: set a user name and password, then enter the same ones in ActBlue.'}
          </Form.Text>
        }
      />
      <Field
        id="actblue-webhook-username"
        label="User name"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        autoComplete="off"
      />
      <Field
        id="actblue-webhook-password"
        label={settings.actblueWebhookPasswordSet ? 'New password' : 'Password'}
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="new-password"
        invalid={password !== '' && passwordShort}
        error={`The webhook password needs at least ${MIN_PASSWORD} characters`}
      />
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

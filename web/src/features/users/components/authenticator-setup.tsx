import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { getGetMeQueryKey, useConfirmAuthenticator, useStartAuthenticatorEnrolment } from '@/api/gen';
import type { AuthenticatorEnrolment, Me } from '@/api/gen/model';
import { notifySuccess } from '@/lib/notifications';
import { isOneTimeCode } from '../utils';

/** An SVG document as a data: URL for an <img>: the image cannot run scripts or touch the page. */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** Step 2 of enrolment: the QR code, the secret for manual entry and the code from the app. */
function ConfirmEnrolment({ enrolment, onDone }: { enrolment: AuthenticatorEnrolment; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const confirm = useConfirmAuthenticator({
    mutation: {
      meta: { silent: true },
      onSuccess: (me) => {
        queryClient.setQueryData(getGetMeQueryKey(), me);
        notifySuccess('Authenticator app enabled');
        onDone();
      },
    },
  });
  const valid = isOneTimeCode(code);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || confirm.isPending) return;
    confirm.mutate({ data: { code: code.trim() } });
  };

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Confirm authenticator app">
      <p>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
      <img
        src={svgDataUrl(enrolment.qrSvg)}
        alt="QR code for your authenticator app"
        width={200}
        height={200}
        className="border rounded bg-white p-2 mb-3 d-block"
      />
      <p className="mb-3">
        Or enter this key by hand: <code data-testid="authenticator-secret">{enrolment.secret}</code>
      </p>
      <Form.Group className="mb-3" controlId="authenticator-code" style={{ maxWidth: '12rem' }}>
        <Form.Label>Code</Form.Label>
        <Form.Control
          value={code}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
      </Form.Group>
      {confirm.isError && <Alert variant="danger">{confirm.error.message}</Alert>}
      <Button type="submit" disabled={!valid || confirm.isPending} className="me-2">
        Confirm
      </Button>
      <Button variant="secondary" onClick={onDone} disabled={confirm.isPending}>
        Cancel
      </Button>
    </Form>
  );
}

/** Enrols an authenticator app: start (QR code and secret), then confirm with a code; the app becomes the method. */
export function AuthenticatorSetup({ me }: { me: Me }) {
  const [enrolment, setEnrolment] = useState<AuthenticatorEnrolment | null>(null);
  const start = useStartAuthenticatorEnrolment({
    mutation: {
      meta: { errorMessage: 'Could not start the authenticator set-up' },
      onSuccess: (data) => setEnrolment(data),
    },
  });

  if (enrolment) return <ConfirmEnrolment enrolment={enrolment} onDone={() => setEnrolment(null)} />;
  return (
    <>
      <p>
        {me.authenticatorEnrolled
          ? 'An authenticator app is set up for your account.'
          : 'Use an authenticator app for your login codes.'}
      </p>
      <Button variant="outline-primary" onClick={() => start.mutate()} disabled={start.isPending}>
        {me.authenticatorEnrolled ? 'Set up a new authenticator app' : 'Set up authenticator app'}
      </Button>
    </>
  );
}

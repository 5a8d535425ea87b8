import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useCheckResetToken, useResetPassword, useSendResetEmail } from '@/api/gen';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';
import { useAuthClient } from '../hooks/use-auth-client';
import { signOut } from '../lib/sign-out';
import { ENTER_NEW_PASSWORD, PASSWORD_UPDATED, RESET_LINK_SENT, SEND_RESET_LINK } from '../messages';
import { confirmPasswordError, emailError, newPasswordError, normaliseEmail } from '../validation';

/** Step 1: ask for the e-mail and send a reset link. */
export function ResetRequestForm({ initialEmail = '' }: { initialEmail?: string }) {
  const location = useLocation();
  const { client, withClient } = useAuthClient();
  const [email, setEmail] = useState(initialEmail);
  const [touched, setTouched] = useState(false);
  const [sent, setSent] = useState(false);
  const send = useSendResetEmail({ mutation: { onSuccess: () => setSent(true) } });
  const problem = emailError(email);
  const cameFromDuplicate = (location.state as { duplicate?: boolean } | null)?.duplicate === true;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    send.mutate({ data: { email: normaliseEmail(email), client } });
  };

  if (sent) {
    return (
      <>
        <p role="status">{RESET_LINK_SENT}</p>
        <Link to={withClient('/auth/login')}>Back to login</Link>
      </>
    );
  }

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Reset password">
      {cameFromDuplicate && (
        <Alert variant="info">An account with this email already exists. Send a reset link to set a new password.</Alert>
      )}
      <Field
        id="reset-email"
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        onBlur={() => setTouched(true)}
        invalid={touched && problem !== null}
        error={touched && problem}
      />
      <Button type="submit" className="w-100 mb-3" disabled={send.isPending}>
        {SEND_RESET_LINK}
      </Button>
      <div className="small text-center">
        <Link to={withClient('/auth/login')}>Back to login</Link>
      </div>
    </Form>
  );
}

/** Step 2 (the e-mailed link): check the token; a good one lets the user choose a new password. */
export function NewPasswordForm({ email, token }: { email: string; token: string }) {
  const navigate = useNavigate();
  const { client, withClient } = useAuthClient();
  const [valid, setValid] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState({ password: false, confirm: false });
  const checked = useRef(false);
  const loginPath = withClient('/auth/login');

  const check = useCheckResetToken({
    mutation: {
      onSuccess: (response) => {
        if (response.valid) setValid(true);
        else void navigate(loginPath, { replace: true });
      },
      onError: () => void navigate(loginPath, { replace: true }),
    },
  });
  const checkToken = check.mutate;

  useEffect(() => {
    if (checked.current) return;
    checked.current = true;
    checkToken({ data: { email, token, client } });
  }, [checkToken, email, token, client]);

  const reset = useResetPassword({
    mutation: {
      onSuccess: async () => {
        notifySuccess(PASSWORD_UPDATED);
        // Every session of the account has ended on the server; forget this browser's too.
        await signOut();
        void navigate(loginPath, { replace: true });
      },
    },
  });

  const passwordProblem = newPasswordError(password);
  const confirmProblem = confirmPasswordError(password, confirm);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ password: true, confirm: true });
    if (passwordProblem || confirmProblem) return;
    reset.mutate({ data: { password, token, email, client } });
  };

  if (!valid) return <PageSpinner label="Checking the link" />;

  return (
    <Form onSubmit={onSubmit} noValidate aria-label={ENTER_NEW_PASSWORD}>
      <p>{ENTER_NEW_PASSWORD}</p>
      <Field
        id="reset-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, password: true }))}
        invalid={touched.password && passwordProblem !== null}
        error={touched.password && passwordProblem}
      />
      <Field
        id="reset-confirm"
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, confirm: true }))}
        invalid={touched.confirm && confirmProblem !== null}
        error={touched.confirm && confirmProblem}
      />
      <Button type="submit" className="w-100 mb-3" disabled={reset.isPending}>
        Save
      </Button>
    </Form>
  );
}

/** /auth/reset-password: the e-mail form, or with `token` and `email` in the address the new-password form. */
export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  if (token && email) return <NewPasswordForm email={email} token={token} />;
  return <ResetRequestForm initialEmail={email} />;
}

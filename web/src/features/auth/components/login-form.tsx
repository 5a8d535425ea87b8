import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';
import { useLogin } from '@/api/gen';
import type { LoginResponse } from '@/api/gen/model';
import { setUniversalToken, tokenHasScope } from '@/lib/session';
import { emailError, loginPasswordError } from '../validation';

export const UNABLE_TO_LOGIN = 'Unable to login';
export const UNABLE_TO_LOGIN_WITH_PASSWORD = 'Unable to login with password';

/** What a login answer means: signed in with a usable token, two-factor step needed, or an error text. */
export type LoginOutcome =
  | { kind: 'token'; token: string }
  | { kind: 'two-factor'; email: string }
  | { kind: 'error'; message: string };

export function loginOutcome(response: LoginResponse): LoginOutcome {
  if (response.accessToken && !response.twoFactorRequired) {
    return tokenHasScope(response.accessToken, 'basic')
      ? { kind: 'token', token: response.accessToken }
      : { kind: 'error', message: UNABLE_TO_LOGIN };
  }
  if (response.twoFactorRequired) return { kind: 'two-factor', email: response.email };
  return { kind: 'error', message: UNABLE_TO_LOGIN_WITH_PASSWORD };
}

/** Login step 1: e-mail and password. */
export function LoginForm() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [problem, setProblem] = useState<string | null>(null);
  const [twoFactorEmail, setTwoFactorEmail] = useState<string | null>(null);

  const login = useLogin({
    mutation: {
      onSuccess: (response) => {
        const outcome = loginOutcome(response);
        if (outcome.kind === 'token') {
          setUniversalToken(outcome.token);
          void navigate('/auth/select-client');
        } else if (outcome.kind === 'two-factor') {
          setTwoFactorEmail(outcome.email);
        } else {
          setProblem(outcome.message);
        }
      },
    },
  });

  const emailProblem = emailError(email);
  const passwordProblem = loginPasswordError(password);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    setProblem(null);
    if (emailProblem || passwordProblem) return;
    login.mutate({ data: { username: email.trim(), password } });
  };

  if (twoFactorEmail !== null) {
    return (
      <div>
        <p>Check your authenticator for a login code</p>
        <Alert variant="warning">
          Two-factor login is not available yet in this version of Compass. Contact an administrator.
        </Alert>
        <Button variant="link" className="px-0" onClick={() => setTwoFactorEmail(null)}>
          Back to login
        </Button>
      </div>
    );
  }

  return (
    <Form onSubmit={onSubmit} noValidate>
      {problem && (
        <Alert variant="danger" role="alert">
          {problem}
        </Alert>
      )}
      <Form.Group className="mb-3" controlId="login-email">
        <Form.Label>Email</Form.Label>
        <Form.Control
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, email: true }))}
          isInvalid={touched.email && emailProblem !== null}
          aria-describedby="login-email-error"
        />
        {touched.email && emailProblem && (
          <Form.Control.Feedback type="invalid" id="login-email-error">
            {emailProblem}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Form.Group className="mb-3" controlId="login-password">
        <Form.Label>Password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, password: true }))}
          isInvalid={touched.password && passwordProblem !== null}
          aria-describedby="login-password-error"
        />
        {touched.password && passwordProblem && (
          <Form.Control.Feedback type="invalid" id="login-password-error">
            {passwordProblem}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Button type="submit" className="w-100 mb-3" disabled={login.isPending}>
        Login
      </Button>
      <div className="d-flex justify-content-between small">
        <Link to="/auth/register">Register</Link>
        <Link to="/auth/reset-password">Request a reset</Link>
      </div>
    </Form>
  );
}

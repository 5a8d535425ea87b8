import { useCallback, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { useGoogleLogin, useLogin } from '@/api/gen';
import type { LoginResponse } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { ApiError } from '@/lib/api-client';
import { tokenHasScope } from '@/lib/session';
import { useAuthClient } from '../hooks/use-auth-client';
import { useCompleteLogin } from '../hooks/use-complete-login';
import {
  UNABLE_TO_LOGIN,
  UNABLE_TO_LOGIN_WITH_GOOGLE,
  UNABLE_TO_LOGIN_WITH_PASSWORD,
  USE_ORGANISATION_LINK,
} from '../messages';
import { emailError, loginPasswordError } from '../validation';
import { GoogleButton } from './google-button';
import { TwoFactorForm } from './two-factor-form';

export { UNABLE_TO_LOGIN, UNABLE_TO_LOGIN_WITH_GOOGLE, UNABLE_TO_LOGIN_WITH_PASSWORD };

/** What a login answer means: signed in with a usable token, two-factor step needed, or an error text. */
export type LoginOutcome =
  | { kind: 'token'; token: string; refreshToken?: string }
  | { kind: 'two-factor'; email: string; method?: string }
  | { kind: 'error'; message: string };

export function loginOutcome(response: LoginResponse): LoginOutcome {
  if (response.accessToken && !response.twoFactorRequired) {
    return tokenHasScope(response.accessToken, 'basic')
      ? { kind: 'token', token: response.accessToken, refreshToken: response.refreshToken ?? undefined }
      : { kind: 'error', message: UNABLE_TO_LOGIN };
  }
  if (response.twoFactorRequired) {
    return response.twoFactorMethod
      ? { kind: 'two-factor', email: response.email, method: response.twoFactorMethod }
      : { kind: 'two-factor', email: response.email };
  }
  return { kind: 'error', message: UNABLE_TO_LOGIN_WITH_PASSWORD };
}

/** What a Google login answer means: Google has done the second factor, so it is a token or an error. */
export function googleLoginOutcome(response: LoginResponse | undefined): LoginOutcome {
  if (!response?.accessToken) return { kind: 'error', message: UNABLE_TO_LOGIN_WITH_GOOGLE };
  return tokenHasScope(response.accessToken, 'basic')
    ? { kind: 'token', token: response.accessToken, refreshToken: response.refreshToken ?? undefined }
    : { kind: 'error', message: UNABLE_TO_LOGIN };
}

/**
 * Login: step 1 e-mail and password (and Google when configured), step 2 the one-time code when the account has
 * a second factor. A client's sign-in link (`?client=`) or client-auth mode signs in to that client directly.
 */
export function LoginForm() {
  const { config, client, clientAuth, withClient } = useAuthClient();
  const completeLogin = useCompleteLogin({ clientAuth });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ email: false, password: false });
  const [problem, setProblem] = useState<string | null>(null);
  const [twoFactor, setTwoFactor] = useState<{ email: string; method?: string } | null>(null);

  /** Acts on a login answer (password, code or Google). */
  const handleOutcome = useCallback(
    async (outcome: LoginOutcome) => {
      if (outcome.kind === 'token') {
        const refused = await completeLogin(outcome.token, outcome.refreshToken);
        if (refused) {
          setTwoFactor(null);
          setProblem(refused);
        }
      } else if (outcome.kind === 'two-factor') {
        setTwoFactor({ email: outcome.email, method: outcome.method });
      } else {
        setTwoFactor(null);
        setProblem(outcome.message);
      }
    },
    [completeLogin],
  );

  const login = useLogin({
    mutation: {
      // The error snackbar is the spec's ("Error 401: …"). Without a client only universal users can sign in
      // here, so a refused sign-in also tells a client user where to go instead.
      onSuccess: (response) => handleOutcome(loginOutcome(response)),
      onError: (error) => {
        if (!client && error instanceof ApiError && error.status === 401) setProblem(USE_ORGANISATION_LINK);
      },
    },
  });
  const google = useGoogleLogin({ mutation: { onSuccess: (response) => handleOutcome(googleLoginOutcome(response)) } });

  const googleMutate = google.mutate;
  const onGoogleCredential = useCallback(
    (credential: string | undefined) => {
      setProblem(null);
      if (!credential) {
        setProblem(UNABLE_TO_LOGIN_WITH_GOOGLE);
        return;
      }
      googleMutate({ data: { credential, client } });
    },
    [googleMutate, client],
  );

  const emailProblem = emailError(email);
  const passwordProblem = loginPasswordError(password);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    setProblem(null);
    if (emailProblem || passwordProblem) return;
    login.mutate({ data: { username: email.trim(), password, client } });
  };

  if (twoFactor !== null) {
    return (
      <TwoFactorForm
        email={twoFactor.email}
        method={twoFactor.method}
        client={client}
        onSignedIn={(response) => handleOutcome(loginOutcome(response))}
        onBack={() => {
          setTwoFactor(null);
          setPassword('');
        }}
      />
    );
  }

  return (
    <Form onSubmit={onSubmit} noValidate>
      {problem && (
        <Alert variant="danger" role="alert">
          {problem}
        </Alert>
      )}
      <Field
        id="login-email"
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, email: true }))}
        invalid={touched.email && emailProblem !== null}
        error={touched.email && emailProblem}
      />
      <Field
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, password: true }))}
        invalid={touched.password && passwordProblem !== null}
        error={touched.password && passwordProblem}
      />
      <Button type="submit" className="w-100 mb-3" disabled={login.isPending || google.isPending}>
        Login
      </Button>
      {config.data?.googleClientId && (
        <GoogleButton clientId={config.data.googleClientId} onCredential={onGoogleCredential} />
      )}
      <div className="d-flex justify-content-between small">
        <Link to={withClient('/auth/register')}>Register</Link>
        <Link to={withClient('/auth/reset-password')}>Request a reset</Link>
      </div>
    </Form>
  );
}

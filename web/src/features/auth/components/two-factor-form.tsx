import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSubmitLoginCode } from '@/api/gen';
import type { LoginResponse } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { ApiError } from '@/lib/api-client';
import { notifyError } from '@/lib/notifications';
import { TWO_FACTOR_PROMPT } from '../messages';
import { CODE_LENGTH, INVALID_PASSCODE_MESSAGE, codeError } from '../validation';

export interface TwoFactorFormProps {
  email: string;
  /** Where the server sent the code: email, phone or app. */
  method?: string;
  client?: string;
  /** The server accepted the code. */
  onSignedIn: (response: LoginResponse) => void | Promise<void>;
  onBack: () => void;
}

const SENT_TO: Record<string, string> = {
  email: 'We sent the code to your email.',
  phone: 'We sent the code to your phone by text message.',
};

/** Login step 2: the 6-digit one-time code. A refused code reads "Invalid passcode". */
export function TwoFactorForm({ email, method, client, onSignedIn, onBack }: TwoFactorFormProps) {
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [refused, setRefused] = useState(false);

  const submitCode = useSubmitLoginCode({
    mutation: {
      // A wrong code is shown at the field; other failures go to the general snackbar.
      meta: { silent: true },
      onSuccess: (response) => onSignedIn(response),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) setRefused(true);
        else notifyError(error);
      },
    },
  });

  const problem = codeError(code) ?? (refused ? INVALID_PASSCODE_MESSAGE : null);
  const showProblem = (touched || refused) && problem !== null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setRefused(false);
    if (codeError(code)) return;
    submitCode.mutate({ data: { email, code: code.trim(), client } });
  };

  return (
    <Form onSubmit={onSubmit} noValidate>
      <p className="mb-1">{TWO_FACTOR_PROMPT}</p>
      {method && SENT_TO[method] && <p className="small text-body-secondary">{SENT_TO[method]}</p>}
      <Field
        id="login-code"
        label="Login code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={CODE_LENGTH}
        value={code}
        autoFocus
        onChange={(e) => {
          setCode(e.target.value);
          setRefused(false);
        }}
        onBlur={() => setTouched(true)}
        invalid={showProblem}
        error={showProblem && problem}
      />
      <Button type="submit" className="w-100 mb-3" disabled={submitCode.isPending}>
        Submit code
      </Button>
      <Button variant="link" className="px-0 small" onClick={onBack}>
        Back to login
      </Button>
    </Form>
  );
}

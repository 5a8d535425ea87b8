import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';
import { useRegister } from '@/api/gen';
import type { RegisterResponse } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { useAuthClient } from '../hooks/use-auth-client';
import { REGISTER_NEEDS_CLIENT, REGISTER_TITLE, REGISTRATION_DUPLICATE, REGISTRATION_PENDING } from '../messages';
import {
  confirmPasswordError,
  emailError,
  isValidPhone,
  newPasswordError,
  normaliseEmail,
  phoneError,
  requiredError,
} from '../validation';

type FieldName = 'firstname' | 'lastname' | 'email' | 'phone' | 'password' | 'confirm';
type TwoFactorMethod = 'email' | 'phone';

export interface RegisterValues {
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  twoFactorMethod: TwoFactorMethod;
  password: string;
  confirm: string;
}

/** Each field's problem (null when fine), by the spec's register rules. */
export function registerErrors(values: RegisterValues): Record<FieldName, string | null> {
  return {
    firstname: requiredError(values.firstname),
    lastname: requiredError(values.lastname),
    email: emailError(values.email),
    phone: phoneError(values.phone),
    password: newPasswordError(values.password),
    confirm: confirmPasswordError(values.password, values.confirm),
  };
}

/** The message for a registration answer. */
export function registrationMessage(response: RegisterResponse): string {
  return response.status === 'duplicate' ? REGISTRATION_DUPLICATE : REGISTRATION_PENDING;
}

const EMPTY: RegisterValues = {
  firstname: '',
  lastname: '',
  email: '',
  phone: '',
  twoFactorMethod: 'email',
  password: '',
  confirm: '',
};

/** "Sign up for a Compass account": a client user's registration. */
export function RegisterForm() {
  const navigate = useNavigate();
  const { config, client, withClient } = useAuthClient();
  const [values, setValues] = useState<RegisterValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  const register = useRegister({
    mutation: {
      onSuccess: (response, { data }) => {
        // The account exists and is enabled: setting a new password is the way in.
        if (response.duplicate) {
          void navigate(withClient('/auth/reset-password', { email: data.email }), { state: { duplicate: true } });
          return;
        }
        setResult(registrationMessage(response));
      },
    },
  });

  const errors = registerErrors(values);
  const phoneUsable = values.phone.trim() !== '' && isValidPhone(values.phone);
  const set = (field: keyof RegisterValues) => (value: string) => {
    setValues((v) => {
      const next = { ...v, [field]: value };
      // The phone method needs a valid phone number.
      if (field === 'phone' && !(value.trim() !== '' && isValidPhone(value))) next.twoFactorMethod = 'email';
      return next;
    });
  };
  const touch = (field: FieldName) => () => setTouched((t) => ({ ...t, [field]: true }));
  const show = (field: FieldName) => submitted || Boolean(touched[field]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some((e) => e !== null)) return;
    register.mutate({
      data: {
        email: normaliseEmail(values.email),
        password: values.password,
        firstname: values.firstname.trim(),
        lastname: values.lastname.trim(),
        phone: values.phone.trim(),
        twoFactorMethod: phoneUsable ? values.twoFactorMethod : 'email',
        client,
      },
    });
  };

  if (result !== null) {
    return (
      <>
        <h2 className="h5 mb-3">{REGISTER_TITLE}</h2>
        <p role="status">{result}</p>
        <Link to={withClient('/auth/login')}>Back to login</Link>
      </>
    );
  }

  // Registration creates a client user: without a client there is nothing to fill in.
  if (!client && !config.isPending) {
    return (
      <>
        <h2 className="h5 mb-3">{REGISTER_TITLE}</h2>
        <Alert variant="info">{REGISTER_NEEDS_CLIENT}</Alert>
        <Link to="/auth/login">Back to login</Link>
      </>
    );
  }

  const field = (name: FieldName, label: string, type: string, autoComplete: string) => (
    <Field
      id={`register-${name}`}
      label={label}
      type={type}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(e) => set(name)(e.target.value)}
      onBlur={touch(name)}
      invalid={show(name) && errors[name] !== null}
      error={show(name) && errors[name]}
    />
  );

  return (
    <Form onSubmit={onSubmit} noValidate aria-label={REGISTER_TITLE}>
      <h2 className="h5 mb-3">{REGISTER_TITLE}</h2>
      {field('firstname', 'First name', 'text', 'given-name')}
      {field('lastname', 'Last name', 'text', 'family-name')}
      {field('email', 'Email', 'email', 'email')}
      {field('phone', 'Phone', 'tel', 'tel')}
      <Form.Group className="mb-3">
        <fieldset>
          <legend className="form-label fs-6 mb-1">Two-factor method</legend>
          <Form.Check
            inline
            type="radio"
            id="register-2fa-email"
            name="twoFactorMethod"
            label="Code by email"
            checked={values.twoFactorMethod === 'email'}
            onChange={() => setValues((v) => ({ ...v, twoFactorMethod: 'email' }))}
          />
          <Form.Check
            inline
            type="radio"
            id="register-2fa-phone"
            name="twoFactorMethod"
            label="Code by phone"
            disabled={!phoneUsable}
            checked={values.twoFactorMethod === 'phone'}
            onChange={() => setValues((v) => ({ ...v, twoFactorMethod: 'phone' }))}
          />
        </fieldset>
      </Form.Group>
      {field('password', 'Password', 'password', 'new-password')}
      {field('confirm', 'Confirm password', 'password', 'new-password')}
      <Button type="submit" className="w-100 mb-3" disabled={register.isPending}>
        Register
      </Button>
      <div className="small text-center">
        <Link to={withClient('/auth/login')}>Back to login</Link>
      </div>
    </Form>
  );
}

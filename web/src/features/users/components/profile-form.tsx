import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { getGetMeQueryKey, useUpdateProfile } from '@/api/gen';
import type { Me } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { notifySuccess } from '@/lib/notifications';
import { isValidPhone, phoneError } from '@/lib/validation';

export const PHONE_NEEDED_MESSAGE = 'A phone number is needed for the phone method';
export const APP_NEEDED_MESSAGE = 'Set up an authenticator app first';

/** Name, phone and two-factor method of the signed-in user. */
export function ProfileForm({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(me.firstName);
  const [lastName, setLastName] = useState(me.lastName);
  const [phone, setPhone] = useState(me.phone);
  const [method, setMethod] = useState(me.twoFactorMethod);
  // A stored "none" is not the user's mistake: it is asked about once they start changing the form.
  const [touched, setTouched] = useState(false);
  const save = useUpdateProfile({
    mutation: {
      meta: { silent: true },
      onSuccess: (updated) => {
        queryClient.setQueryData(getGetMeQueryKey(), updated);
        notifySuccess('Profile saved');
      },
    },
  });

  const phoneProblem = phoneError(phone);
  const phoneUsable = isValidPhone(phone);
  const methodProblem =
    method === 'phone' && !phoneUsable
      ? PHONE_NEEDED_MESSAGE
      : method === 'app' && !me.authenticatorEnrolled
        ? APP_NEEDED_MESSAGE
        : method === 'none'
          ? 'Choose a two-factor method'
          : null;
  const valid = phoneProblem === null && methodProblem === null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!valid || save.isPending) return;
    save.mutate({
      data: { firstName: firstName.trim(), lastName: lastName.trim(), phone: phone.trim(), twoFactorMethod: method },
    });
  };

  const methods: { value: string; label: string; disabled: boolean; hint?: string }[] = [
    { value: 'email', label: 'Email', disabled: false },
    {
      value: 'phone',
      label: 'Phone',
      disabled: !phoneUsable,
      hint: phoneUsable ? undefined : 'Enter a 10-digit phone number to use this',
    },
    {
      value: 'app',
      label: 'Authenticator app',
      disabled: !me.authenticatorEnrolled,
      hint: me.authenticatorEnrolled ? undefined : 'Set up an authenticator app below to use this',
    },
  ];

  return (
    <Form onSubmit={onSubmit} onChange={() => setTouched(true)} noValidate aria-label="Profile">
      <Form.Group className="mb-3" controlId="profile-email">
        <Form.Label>Email</Form.Label>
        <Form.Control value={me.email} readOnly plaintext />
      </Form.Group>
      <div className="row g-3 mb-3">
        <Form.Group className="col-md-6" controlId="profile-first-name">
          <Form.Label>First name</Form.Label>
          <Form.Control value={firstName} maxLength={100} onChange={(e) => setFirstName(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-md-6" controlId="profile-last-name">
          <Form.Label>Last name</Form.Label>
          <Form.Control value={lastName} maxLength={100} onChange={(e) => setLastName(e.target.value)} />
        </Form.Group>
      </div>
      <Field
        id="profile-phone"
        label="Phone"
        type="tel"
        inputMode="numeric"
        value={phone}
        maxLength={20}
        onChange={(e) => setPhone(e.target.value)}
        aria-invalid={phoneProblem !== null}
        invalid={phoneProblem !== null}
        error={phoneProblem}
      />
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Two-factor method</legend>
        {methods.map((m) => (
          <Form.Check key={m.value} id={`profile-2fa-${m.value}`}>
            <Form.Check.Input
              type="radio"
              name="twoFactorMethod"
              value={m.value}
              checked={method === m.value}
              disabled={m.disabled}
              onChange={() => setMethod(m.value)}
              aria-describedby={m.hint ? `profile-2fa-${m.value}-hint` : undefined}
            />
            <Form.Check.Label>{m.label}</Form.Check.Label>
            {m.hint && (
              <Form.Text id={`profile-2fa-${m.value}-hint`} className="ms-2">
                {m.hint}
              </Form.Text>
            )}
          </Form.Check>
        ))}
        {methodProblem && touched && <div className="text-danger small mt-1">{methodProblem}</div>}
      </fieldset>
      {save.isError && <Alert variant="danger">{save.error.message}</Alert>}
      <Button type="submit" disabled={!valid || save.isPending}>
        Save
      </Button>
    </Form>
  );
}

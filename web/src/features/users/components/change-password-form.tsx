import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useChangePassword } from '@/api/gen';
import { Field } from '@/components/form/field';
import { notifySuccess } from '@/lib/notifications';
import { PASSWORD_RULE_MESSAGE, confirmPasswordError, newPasswordError } from '@/lib/validation';

/** Current password, new password (the strength rule) and its confirmation. */
export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const change = useChangePassword({
    mutation: {
      meta: { silent: true },
      onSuccess: () => {
        setCurrent('');
        setNext('');
        setConfirm('');
        notifySuccess('Password changed');
      },
    },
  });

  // Rules show once the user has typed into the field.
  const nextProblem = next === '' ? null : newPasswordError(next);
  const confirmProblem = confirm === '' ? null : confirmPasswordError(next, confirm);
  const valid =
    current !== '' && newPasswordError(next) === null && confirmPasswordError(next, confirm) === null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || change.isPending) return;
    change.mutate({ data: { currentPassword: current, newPassword: next } });
  };

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Change password">
      <Field
        id="password-current"
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        maxLength={1024}
        onChange={(e) => setCurrent(e.target.value)}
      />
      <Field
        id="password-new"
        label="New password"
        type="password"
        autoComplete="new-password"
        value={next}
        maxLength={1024}
        onChange={(e) => setNext(e.target.value)}
        aria-invalid={nextProblem !== null}
        invalid={nextProblem !== null}
        error={nextProblem}
        rule={PASSWORD_RULE_MESSAGE}
        messageId="password-new-rule"
      />
      <Field
        id="password-confirm"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        maxLength={1024}
        onChange={(e) => setConfirm(e.target.value)}
        aria-invalid={confirmProblem !== null}
        invalid={confirmProblem !== null}
        error={confirmProblem}
      />
      {change.isError && <Alert variant="danger">{change.error.message}</Alert>}
      <Button type="submit" disabled={!valid || change.isPending}>
        Change password
      </Button>
    </Form>
  );
}

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import Button from 'react-bootstrap/Button';
import { Field } from './field';

describe('Field', () => {
  it('labels the control and keeps the message out of view while valid', () => {
    render(<Field id="sender-from" label="From address" type="email" error="Enter a valid email" defaultValue="" />);
    const input = screen.getByLabelText('From address');
    expect(input).toHaveAttribute('type', 'email');
    expect(input).not.toHaveClass('is-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('marks the control invalid and links its message', () => {
    render(<Field id="sender-from" label="From address" invalid error="Enter a valid email" defaultValue="x" />);
    const input = screen.getByLabelText('From address');
    expect(input).toHaveClass('is-invalid');
    expect(input).toHaveAccessibleDescription('Enter a valid email');
    expect(screen.getByText('Enter a valid email')).toHaveAttribute('id', 'sender-from-error');
  });

  it('renders a select with its options and hands changes to the caller', async () => {
    const onChange = vi.fn();
    render(
      <Field id="sender" label="Sender" select invalid error="You must choose a sender" value="" onChange={onChange} hint={<small>No senders yet</small>}>
        <option value="">Choose a sender…</option>
        <option value="1">Erin</option>
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Sender' });
    expect(select).toHaveAccessibleDescription('You must choose a sender');
    await userEvent.selectOptions(select, '1');
    expect(onChange).toHaveBeenCalled();
    expect(screen.getByText('No senders yet')).toBeInTheDocument();
  });

  it('describes the control by its rule until the error takes the rule\'s place and id', () => {
    const { rerender } = render(
      <Field id="password-new" label="New password" type="password" rule="At least 12 characters" messageId="password-new-rule" error={null} />,
    );
    const input = screen.getByLabelText('New password');
    expect(input).toHaveAccessibleDescription('At least 12 characters');
    expect(screen.getByText('At least 12 characters')).toHaveAttribute('id', 'password-new-rule');

    rerender(
      <Field
        id="password-new"
        label="New password"
        type="password"
        rule="At least 12 characters"
        messageId="password-new-rule"
        invalid
        error="Too short"
      />,
    );
    expect(input).toHaveClass('is-invalid');
    expect(input).toHaveAccessibleDescription('Too short');
    expect(screen.getByText('Too short')).toHaveAttribute('id', 'password-new-rule');
    expect(screen.queryByText('At least 12 characters')).not.toBeInTheDocument();
  });

  it('puts add-ons before and after the control in one input group, the message inside it', () => {
    const { container } = render(
      <Field
        id="logo"
        label="Logo URL"
        before={<span className="input-group-text">URL</span>}
        after={<Button>Remove logo</Button>}
        invalid
        error="The logo URL must start with https://"
      />,
    );
    const group = container.querySelector('.input-group');
    expect(group).toHaveClass('has-validation');
    expect([...(group?.children ?? [])].map((c) => c.textContent)).toEqual([
      'URL',
      '',
      'Remove logo',
      'The logo URL must start with https://',
    ]);
    expect(screen.getByLabelText('Logo URL')).toHaveAccessibleDescription('The logo URL must start with https://');
  });

  it('leaves the group without validation styling while there is no message', () => {
    const { container } = render(<Field id="url" label="Webhook address" readOnly value="x" after={<Button>Copy</Button>} />);
    expect(container.querySelector('.input-group')).not.toHaveClass('has-validation');
  });
});

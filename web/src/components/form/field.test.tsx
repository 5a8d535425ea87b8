import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
});

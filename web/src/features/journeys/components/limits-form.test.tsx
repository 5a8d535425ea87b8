import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/utils';
import { LimitsForm, parseLimit } from './limits-form';

describe('LimitsForm', () => {
  it('reads an empty box as no limit and refuses what is out of range', () => {
    expect(parseLimit('', 1, 100)).toBeNull();
    expect(parseLimit(' 3 ', 1, 100)).toBe(3);
    expect(parseLimit('0', 1, 100)).toBe('A whole number from 1 to 100, or empty.');
    expect(parseLimit('2.5', 0, 23)).toBe('A whole number from 0 to 23, or empty.');
  });

  it('saves the cap and both ends of the quiet hours; half the quiet hours is refused', async () => {
    const onSave = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<LimitsForm limits={{ per_day: 2, per_week: null }} onSave={onSave} saving={false} />);
    expect(screen.getByLabelText('E-mails per contact per day')).toHaveValue(2);
    await user.type(screen.getByLabelText('Quiet hours start (hour)'), '21');
    expect(screen.getByText('Give both ends of the quiet hours, or neither.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save limits' })).toBeDisabled();
    await user.type(screen.getByLabelText('Quiet hours end (hour)'), '8');
    await user.type(screen.getByLabelText('E-mails per contact per week'), '5');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(onSave).toHaveBeenCalledWith({ per_day: 2, per_week: 5, quiet_start_hour: 21, quiet_end_hour: 8 });
  });
});

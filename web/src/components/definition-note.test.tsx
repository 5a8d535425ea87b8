import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailRevenueNote } from './definition-note';

describe('EmailRevenueNote', () => {
  it('names the send-date definition and what the page adds', () => {
    render(<EmailRevenueNote extra="This page adds external mailings." />);
    const note = screen.getByTestId('email-revenue-note');
    expect(note).toHaveTextContent('E-mail revenue is by send date');
    expect(note).toHaveTextContent('RPM = that revenue ÷ messages those mailings delivered × 1,000.');
    expect(note).toHaveTextContent('This page adds external mailings.');
  });
});

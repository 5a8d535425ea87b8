import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/utils';
import { ApiError } from './api-client';
import { clearSnacks, formatError, notifyError } from './notifications';

afterEach(() => act(() => clearSnacks()));

describe('formatError', () => {
  it('formats an HTTP error with its status', () => {
    expect(formatError(new ApiError(404, 'Not found'))).toBe('Error 404: Not found.');
  });

  it('formats any other error with its message', () => {
    expect(formatError(new Error('boom'))).toBe('Error boom.');
    expect(formatError('boom')).toBe('Error boom.');
  });
});

describe('Snackbar', () => {
  it('shows an error with a Close button that removes it', async () => {
    renderWithProviders(<div />);
    act(() => {
      notifyError(new ApiError(500, 'Server fell over'));
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error 500: Server fell over.');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Error 500: Server fell over.')).not.toBeInTheDocument());
  });

  it('is the global error handler of queries', async () => {
    function Failing() {
      useQuery({
        queryKey: ['failing'],
        queryFn: () => Promise.reject(new ApiError(404, 'Not found')),
      });
      return null;
    }
    renderWithProviders(<Failing />);
    expect(await screen.findByText('Error 404: Not found.')).toBeInTheDocument();
  });

  it('shows a query-specific message instead when the query names one', async () => {
    function Failing() {
      useQuery({
        queryKey: ['settings'],
        queryFn: () => Promise.reject(new Error('boom')),
        meta: { errorMessage: 'Could not load app settings' },
      });
      return null;
    }
    renderWithProviders(<Failing />);
    expect(await screen.findByText('Could not load app settings')).toBeInTheDocument();
  });
});

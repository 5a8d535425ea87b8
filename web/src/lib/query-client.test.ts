import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { clearSnacks, useSnacks } from './notifications';
import { createQueryClient } from './query-client';
import { renderHook } from '@testing-library/react';

afterEach(() => clearSnacks());

const messages = () => renderHook(() => useSnacks()).result.current.map((s) => s.message);

describe('the global error snackbar', () => {
  it('shows a 409 answer as the server words it (a taken name), not the generic text', async () => {
    const client = createQueryClient();
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new ApiError(409, 'A list with this name already exists')),
      meta: { errorMessage: 'Could not create the list' },
    });
    await mutation.execute(undefined).catch(() => undefined);
    expect(messages()).toEqual(['A list with this name already exists']);
  });

  it('keeps the page’s own message for other errors', async () => {
    const client = createQueryClient();
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new ApiError(500, 'Internal server error')),
      meta: { errorMessage: 'Could not create the list' },
    });
    await mutation.execute(undefined).catch(() => undefined);
    expect(messages()).toEqual(['Could not create the list']);
  });
});

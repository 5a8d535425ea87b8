import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/utils';
import { ApiError, customFetch, setUnauthorizedHandler } from './api-client';

const fetchMock = vi.fn<typeof fetch>();

function lastRequestHeaders(): Headers {
  const init = fetchMock.mock.calls.at(-1)?.[1];
  return new Headers(init?.headers);
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  localStorage.setItem('token', 'tok-123');
  localStorage.setItem('clientShort', 'acme');
  localStorage.setItem('clientId', '7');
});

afterEach(() => setUnauthorizedHandler(null));

describe('customFetch', () => {
  it('adds the bearer token, client-short and client-id headers to /api calls', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 1 }));
    const body = await customFetch<{ id: number }>('/api/jobs/1', { method: 'GET' });
    expect(body).toEqual({ id: 1 });
    const headers = lastRequestHeaders();
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get('client-short')).toBe('acme');
    expect(headers.get('client-id')).toBe('7');
  });

  it('never overwrites a session header the caller passed explicitly', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 5, name: 'Join us', bodyHtml: '' }));
    await customFetch('/api/crm-form/5/viewer', { headers: { 'client-short': 'demo', 'client-id': '42' } });
    const headers = lastRequestHeaders();
    expect(headers.get('client-short')).toBe('demo');
    expect(headers.get('client-id')).toBe('42');
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
  });

  it('sends an explicit client-short without any session', async () => {
    localStorage.clear();
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await customFetch('/api/crm-form/5/view', { method: 'POST', headers: new Headers({ 'client-short': 'demo' }) });
    const headers = lastRequestHeaders();
    expect(headers.get('client-short')).toBe('demo');
    expect(headers.has('client-id')).toBe(false);
    expect(headers.has('Authorization')).toBe(false);
  });

  it('adds them to /auth-api/session calls too', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse([]));
    await customFetch('/auth-api/session/clients');
    const headers = lastRequestHeaders();
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get('client-short')).toBe('acme');
    expect(headers.get('client-id')).toBe('7');
  });

  it('sends none of them to /auth-api/auth calls', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ twoFactorRequired: false, email: 'a@b.c' }));
    await customFetch('/auth-api/auth/login', { method: 'POST', body: JSON.stringify({ username: 'a', password: 'b' }) });
    const headers = lastRequestHeaders();
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.has('client-short')).toBe(false);
    expect(headers.has('client-id')).toBe(false);
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('throws ApiError with the server message on a non-2xx answer', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'No such job' }, 404, 'Not Found'));
    const error = await customFetch('/api/jobs/99').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'No such job' });
  });

  it('falls back to the status text when the body has no message', async () => {
    fetchMock.mockResolvedValueOnce(new Response('oops', { status: 502, statusText: 'Bad Gateway' }));
    await expect(customFetch('/api')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });
  });

  it('ends the session on a 401 from /api, but not from /auth-api/auth', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Bad credentials' }, 401));
    await expect(customFetch('/auth-api/auth/login', { method: 'POST', body: '{}' })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Token expired' }, 401));
    await expect(customFetch('/api/jobs')).rejects.toMatchObject({ status: 401, message: 'Token expired' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('the default 401 handler clears the session and remembers the address', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/jobs', search: '', hash: '', assign });
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Token expired' }, 401));
    await expect(customFetch('/api/jobs')).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('clientId')).toBeNull();
    expect(localStorage.getItem('clientShort')).toBeNull();
    expect(localStorage.getItem('redirect')).toBe('/jobs');
    expect(assign).toHaveBeenCalledWith('/auth/login');
  });

  it('returns undefined for an empty success body', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(customFetch('/api/crm-list/1', { method: 'DELETE' })).resolves.toBeUndefined();
  });
});

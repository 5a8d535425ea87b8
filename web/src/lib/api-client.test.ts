import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/utils';
import { fakeJwt } from '@/test/utils';
import { ApiError, customFetch, refreshSession, setUnauthorizedHandler } from './api-client';

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

  it('a 401 from a session call refreshes the tokens once for concurrent calls and retries each with the new token', async () => {
    localStorage.setItem('refreshToken', 'refresh-1');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    let releaseRefresh: () => void = () => {};
    const refreshAnswered = new Promise<void>((resolve) => (releaseRefresh = resolve));
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      const auth = new Headers(init?.headers).get('Authorization');
      if (url === '/auth-api/auth/refresh') {
        await refreshAnswered;
        return jsonResponse({ accessToken: 'tok-new', refreshToken: 'refresh-2' });
      }
      if (auth === 'Bearer tok-new') return jsonResponse({ url });
      return jsonResponse({ message: 'Token expired' }, 401);
    });

    const calls = [customFetch('/api/jobs'), customFetch('/api/crm-list'), customFetch('/auth-api/session/me')];
    // Let all three get their 401 before the refresh answers.
    await vi.waitFor(() => expect(fetchMock.mock.calls.filter(([u]) => u !== '/auth-api/auth/refresh')).toHaveLength(3));
    releaseRefresh();
    await expect(Promise.all(calls)).resolves.toEqual([{ url: '/api/jobs' }, { url: '/api/crm-list' }, { url: '/auth-api/session/me' }]);

    const refreshes = fetchMock.mock.calls.filter(([u]) => u === '/auth-api/auth/refresh');
    expect(refreshes).toHaveLength(1);
    expect(JSON.parse(String(refreshes[0][1]?.body))).toEqual({ refreshToken: 'refresh-1' });
    expect(new Headers(refreshes[0][1]?.headers).has('Authorization')).toBe(false);
    expect(localStorage.getItem('token')).toBe('tok-new');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
    // The chosen client stays.
    expect(localStorage.getItem('clientId')).toBe('7');
    expect(onUnauthorized).not.toHaveBeenCalled();
    // 3 first tries, 1 refresh, 3 retries.
    expect(fetchMock).toHaveBeenCalledTimes(7);
  });

  it('a call that fails with a token someone else already replaced just retries with the new one', async () => {
    localStorage.setItem('refreshToken', 'refresh-1');
    fetchMock.mockImplementationOnce(async () => {
      // While this call was on its way another one refreshed.
      localStorage.setItem('token', 'tok-newer');
      return jsonResponse({ message: 'Token expired' }, 401);
    });
    fetchMock.mockResolvedValueOnce(jsonResponse({ ok: true }));
    await expect(customFetch('/api/jobs')).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(lastRequestHeaders().get('Authorization')).toBe('Bearer tok-newer');
  });

  it('a refused refresh ends the session once and the calls fail with their 401', async () => {
    localStorage.setItem('refreshToken', 'refresh-revoked');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/crm-lists', search: '', hash: '', assign });
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/auth-api/auth/refresh'
        ? jsonResponse({ message: 'Your session has ended; log in again' }, 401)
        : jsonResponse({ message: 'Token expired' }, 401),
    );
    const results = await Promise.allSettled([customFetch('/api/jobs'), customFetch('/api/crm-list')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(fetchMock.mock.calls.filter(([u]) => u === '/auth-api/auth/refresh')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(localStorage.getItem('redirect')).toBe('/crm-lists');
    expect(assign).toHaveBeenCalledWith('/auth/login');
  });

  it('a retried call that still answers 401 ends the session (no refresh loop)', async () => {
    localStorage.setItem('refreshToken', 'refresh-1');
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/auth-api/auth/refresh'
        ? jsonResponse({ accessToken: 'tok-new', refreshToken: 'refresh-2' })
        : jsonResponse({ message: 'Revoked' }, 401),
    );
    await expect(customFetch('/api/jobs')).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a client user whose session ends goes back to their client\'s login page', async () => {
    localStorage.setItem('token', fakeJwt({ user: { id: 4, kind: 'client' }, scope: ['basic', 'client'], clientId: 7, clientShort: 'acme' }));
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/jobs', search: '', hash: '', assign });
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Token expired' }, 401));
    await expect(customFetch('/api/jobs')).rejects.toBeInstanceOf(ApiError);
    expect(assign).toHaveBeenCalledWith('/auth/login?client=acme');
  });

  it('refreshSession without a refresh token resolves false without calling the server', async () => {
    await expect(refreshSession()).resolves.toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tabs take turns: a tab that waited while another refreshed uses the pair that tab stored', async () => {
    localStorage.setItem('refreshToken', 'refresh-1');
    const request = vi.fn(async (_name: string, task: () => Promise<boolean>) => {
      // Another tab held the lock and rotated the shared tokens meanwhile.
      localStorage.setItem('token', 'tok-other-tab');
      localStorage.setItem('refreshToken', 'refresh-2');
      return task();
    });
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Token expired' }, 401));
    fetchMock.mockResolvedValueOnce(jsonResponse({ ok: true }));
    await expect(customFetch('/api/jobs')).resolves.toEqual({ ok: true });
    expect(request).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual(['/api/jobs', '/api/jobs']);
    expect(lastRequestHeaders().get('Authorization')).toBe('Bearer tok-other-tab');
  });
});

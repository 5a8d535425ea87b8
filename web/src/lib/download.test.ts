import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/utils';
import { setUnauthorizedHandler } from './api-client';
import { dispositionName, downloadFile } from './download';

const fetchMock = vi.fn<typeof fetch>();
const saved: { name: string; text: string }[] = [];

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  saved.length = 0;
  localStorage.setItem('token', 'tok-old');
  localStorage.setItem('refreshToken', 'refresh-1');
  localStorage.setItem('clientShort', 'acme');
  localStorage.setItem('clientId', '7');
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:file');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, text: '' });
  });
});

afterEach(() => {
  setUnauthorizedHandler(null);
  vi.restoreAllMocks();
});

describe('downloadFile', () => {
  it('sends the session headers and, on a 401, refreshes the token and retries', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === '/auth-api/auth/refresh') return jsonResponse({ accessToken: 'tok-new', refreshToken: 'refresh-2' });
      const auth = new Headers(init?.headers).get('Authorization');
      if (auth !== 'Bearer tok-new') return new Response(null, { status: 401 });
      return new Response('a,b\n', {
        headers: { 'Content-Disposition': 'attachment; filename="flights.csv"' },
      });
    });
    await downloadFile('/api/flights/export/csv', 'fallback.csv', { nameFromServer: true });
    const urls = fetchMock.mock.calls.map(([u]) => String(u));
    expect(urls).toEqual(['/api/flights/export/csv', '/auth-api/auth/refresh', '/api/flights/export/csv']);
    const retried = new Headers(fetchMock.mock.calls[2][1]?.headers);
    expect(retried.get('client-short')).toBe('acme');
    expect(retried.get('client-id')).toBe('7');
    expect(saved.map((s) => s.name)).toEqual(['flights.csv']);
  });

  it("throws the server's message, or names the status when there is none", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'No rows in this range' }, 400));
    await expect(downloadFile('/api/x', 'x.csv')).rejects.toThrow('No rows in this range');
    fetchMock.mockResolvedValueOnce(new Response('oops', { status: 500 }));
    await expect(downloadFile('/api/x', 'x.csv')).rejects.toThrow('Could not download the file (500)');
    expect(saved).toEqual([]);
  });
});

describe('dispositionName', () => {
  it('reads the RFC 5987 name first, then the plain one, else the fallback', () => {
    expect(dispositionName("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.xlsx", 'f')).toBe('résumé.xlsx');
    expect(dispositionName('attachment; filename="a.csv"', 'f')).toBe('a.csv');
    expect(dispositionName(null, 'f')).toBe('f');
  });
});

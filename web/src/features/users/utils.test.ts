import { describe, expect, it } from 'vitest';
import { svgDataUrl } from './components/authenticator-setup';
import { describeDetail, isOneTimeCode, namesFor, userStatus } from './utils';

describe('userStatus', () => {
  it('is "Awaiting verification" before the e-mail is verified, then follows enabled', () => {
    expect(userStatus({ emailVerified: false, enabled: true })).toBe('Awaiting verification');
    expect(userStatus({ emailVerified: false, enabled: false })).toBe('Awaiting verification');
    expect(userStatus({ emailVerified: true, enabled: false })).toBe('Disabled');
    expect(userStatus({ emailVerified: true, enabled: true })).toBe('Enabled');
  });
});

describe('describeDetail', () => {
  it('lists a JSON object as key: value pairs and keeps anything else as it is', () => {
    expect(describeDetail('{"userId":3,"roleIds":[1,2],"email":"a@b.c"}')).toBe('userId: 3; roleIds: 1, 2; email: a@b.c');
    expect(describeDetail('{}')).toBe('');
    expect(describeDetail('not json')).toBe('not json');
    expect(describeDetail('[1,2]')).toBe('[1,2]');
  });
});

describe('namesFor', () => {
  it('names known ids and marks unknown ones', () => {
    expect(namesFor([4, 99], [{ id: 4, label: 'Other Committee' }])).toEqual(['Other Committee', '#99']);
  });
});

describe('isOneTimeCode', () => {
  it('takes exactly six digits', () => {
    expect(isOneTimeCode('123456')).toBe(true);
    expect(isOneTimeCode('12345')).toBe(false);
    expect(isOneTimeCode('12345a')).toBe(false);
  });
});

describe('svgDataUrl', () => {
  it('encodes the document, non-ASCII included, as a base64 data URL', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>Compass – QR</title></svg>';
    const url = svgDataUrl(svg);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const bytes = Uint8Array.from(atob(url.split(',')[1]), (c) => c.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe(svg);
  });
});

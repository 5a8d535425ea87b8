import { describe, expect, it } from 'vitest';
import { parseHeaderRow, readHeaderRow } from '@/lib/header-row';
import { contactName } from './utils';

describe('parseHeaderRow', () => {
  it('reads the first line of comma, semicolon and tab separated text', () => {
    expect(parseHeaderRow('Email,First,Last\na@b.c,A,B\n')).toEqual(['Email', 'First', 'Last']);
    expect(parseHeaderRow('Email;First;Last\r\na@b.c;A;B')).toEqual(['Email', 'First', 'Last']);
    expect(parseHeaderRow('Email\tFirst\tLast')).toEqual(['Email', 'First', 'Last']);
  });

  it('handles quotes, a byte-order mark, blanks and repeats', () => {
    expect(parseHeaderRow('\uFEFF"Email, work";"Say ""hi""" ; ;First;First\nx')).toEqual([
      'Email, work',
      'Say "hi"',
      'First',
    ]);
    expect(parseHeaderRow('"a;b;c",d,e\n"x;y",1,2')).toEqual(['a;b;c', 'd', 'e']);
  });

  it('reads a file in the browser', async () => {
    const file = new File(['PreferredEmail,VANID\n1,2\n'], 'people.csv', { type: 'text/csv' });
    await expect(readHeaderRow(file)).resolves.toEqual(['PreferredEmail', 'VANID']);
  });
});

describe('contactName', () => {
  it('joins the non-empty parts', () => {
    expect(contactName({ firstName: 'Jane', lastName: 'Doe' })).toBe('Jane Doe');
    expect(contactName({ firstName: '', lastName: 'Doe' })).toBe('Doe');
  });
});

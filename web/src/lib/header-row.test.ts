import { describe, expect, it } from 'vitest';
import { parsePreview } from './header-row';

describe('parsePreview (issue 17, item 15)', () => {
  it('gives the header and the first rows, quotes and delimiters understood', () => {
    const text = '\uFEFFE-mail;First Name;Note\r\nann@example.org;Ann;"two\nlines"\nbob@example.org;Bob;"a;b"\n\nc@x.org;C;\nd@x.org;D;';
    expect(parsePreview(text, 3)).toEqual({
      columns: ['E-mail', 'First Name', 'Note'],
      rows: [
        ['ann@example.org', 'Ann', 'two\nlines'],
        ['bob@example.org', 'Bob', 'a;b'],
        ['c@x.org', 'C', ''],
      ],
    });
  });
});

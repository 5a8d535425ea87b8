import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize-html';

describe('sanitizeHtml', () => {
  it('drops active elements, event handlers and javascript: links, and keeps the body only', () => {
    const html =
      '<html><head><style>body{color:red}</style></head><body><p onclick="x()">Hi <b>there</b></p>' +
      '<script>alert(1)</script><img src="x.png" onerror="alert(1)"><a href=" java\tscript:alert(1)">a</a>' +
      '<a href="https://example.org">b</a><iframe src="https://evil.example"></iframe><style>*{display:none}</style></body></html>';
    expect(sanitizeHtml(html)).toBe('<p>Hi <b>there</b></p><img src="x.png"><a>a</a><a href="https://example.org">b</a>');
  });
});

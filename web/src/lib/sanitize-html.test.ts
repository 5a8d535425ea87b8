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

  it('drops forms, embedded documents, vbscript: and data:text/html addresses and srcdoc', () => {
    const html =
      '<form action="https://evil.example"><input name="q"></form><object data="x.swf"></object><embed src="x.swf">' +
      '<a href="VBScript:msgbox(1)">v</a><a href="data:text/html,<script>alert(1)</script>">d</a>' +
      '<div srcdoc="<script>alert(1)</script>">s</div><svg><script>alert(1)</script></svg><math><mi xlink:href="javascript:alert(1)">m</mi></math>';
    const clean = sanitizeHtml(html);
    expect(clean).not.toMatch(/<form|<object|<embed|<script|srcdoc|vbscript|javascript|data:text\/html/i);
    expect(clean).toContain('<a>v</a>');
    expect(clean).toContain('<a>d</a>');
    expect(clean).toContain('<div>s</div>');
  });
});

import { describe, expect, it } from 'vitest';
import { designToHtml, escapeHtml, parseDesignerHtml, safeUrl } from './html';
import { createBlock, type Block } from './model';

const block = (type: Block['type'], patch: Partial<Block> = {}): Block => ({ ...createBlock(type), ...patch });

describe('email designer HTML', () => {
  it('escapes text but keeps merge tags', () => {
    expect(escapeHtml(`<b>"Tom" & 'Jerry'</b> {{First.Name}}`)).toBe(
      '&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt; {{First.Name}}',
    );
  });

  it('keeps only http(s) and mailto URLs', () => {
    expect(safeUrl(' https://example.com/?e={{Email}} ')).toBe('https://example.com/?e={{Email}}');
    expect(safeUrl('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(safeUrl('mailto:a@example.com', { allowMailto: false })).toBeNull();
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x', '//evil', 'http://', 'ftp://x']) {
      expect(safeUrl(bad)).toBeNull();
    }
  });

  it('builds a 600 px presentation table with inline styles only', () => {
    const html = designToHtml([
      block('heading'),
      block('text'),
      block('button', { href: 'https://example.com' }),
      block('image', { src: 'https://example.com/a.png', alt: 'Logo' }),
      block('divider'),
      block('spacer'),
      block('columns'),
    ]);
    expect(html).toMatch(/^<!-- compass-designer:[A-Za-z0-9+/=]+ -->\n<table role="presentation"[^>]* width="100%"/);
    expect(html).toContain('<table role="presentation" cellpadding="0" cellspacing="0" border="0" width="600"');
    expect(html).not.toMatch(/<style|class=|display:\s*(flex|grid)/i);
    expect(html).toContain('<img src="https://example.com/a.png" width="568" alt="Logo"');
    // The bulletproof button: a table cell holding the link.
    expect(html).toMatch(/<td align="center" bgcolor="#0d6efd" style="[^"]*"><a href="https:\/\/example.com" target="_blank" style="[^"]*">Click here<\/a><\/td>/);
    // Two columns: a nested two-cell table.
    expect(html).toMatch(/<tr><td width="50%"[^>]*>Left column<\/td><td width="50%"[^>]*>Right column<\/td><\/tr>/);
    // Every cell is styled inline.
    const doc = new DOMParser().parseFromString(html, 'text/html');
    for (const td of Array.from(doc.querySelectorAll('td'))) expect(td.getAttribute('style')).toBeTruthy();
    expect(doc.querySelectorAll('table[role="presentation"]').length).toBeGreaterThanOrEqual(2);
  });

  it('round-trips the blocks through the embedded JSON (including non-ASCII text)', () => {
    const blocks = [block('heading', { text: 'Grüße, {{First.Name}} ✓' }), block('button', { href: 'mailto:a@b.c' })];
    const again = parseDesignerHtml(designToHtml(blocks));
    expect(again?.map(({ id: _id, ...rest }) => rest)).toEqual(blocks.map(({ id: _id, ...rest }) => rest));
  });

  it('rejects foreign or damaged HTML and sanitises tampered JSON', () => {
    expect(parseDesignerHtml('<p>Hello</p>')).toBeNull();
    expect(parseDesignerHtml('<!-- compass-designer:!!! -->')).toBeNull();
    const tampered = btoa(JSON.stringify({ version: 1, blocks: [{ type: 'text', color: 'red;background:url(x)', padding: 9999 }, { type: 'script' }] }));
    const blocks = parseDesignerHtml(`<!-- compass-designer:${tampered} -->`);
    expect(blocks).toHaveLength(1);
    expect(blocks?.[0]).toMatchObject({ type: 'text', color: '#212529', padding: 60 });
  });
});

const DROPPED_ELEMENTS = 'script, style, iframe, frame, frameset, object, embed, applet, base, meta, link, form, noscript, template';
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'poster']);

/**
 * Makes staff HTML safe to place in an editable element of the app's own DOM (the rich-text editor): parsed in an
 * inert document, then without active elements, event-handler attributes and `javascript:` addresses. Only the
 * body's content is kept. (Previews never use this: they render in `<iframe sandbox="">`.)
 */
export function sanitizeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.body.querySelectorAll(DROPPED_ELEMENTS).forEach((el) => el.remove());
  doc.body.querySelectorAll('*').forEach((el) => {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
      const value = [...attr.value].filter((c) => c.charCodeAt(0) > 32).join('').toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc') el.removeAttribute(attr.name);
      else if (URL_ATTRIBUTES.has(name) && /^(javascript|vbscript|data:text\/html)/.test(value)) el.removeAttribute(attr.name);
    }
  });
  return doc.body.innerHTML;
}

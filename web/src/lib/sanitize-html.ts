import DOMPurify from 'dompurify';

/**
 * Makes staff HTML safe to place in an editable element of the app's own DOM (the rich-text editor). DOMPurify's
 * allow-list keeps formatting and drops scripts, event handlers and `javascript:` addresses; style sheets, forms
 * and frames go too, because in the app's own DOM they would restyle or overlay the page around the editor. Only
 * the body's content is kept. (Previews never use this: they render in `<iframe sandbox="">`.)
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'iframe', 'frame', 'frameset', 'object', 'embed', 'base', 'meta', 'link'],
    FORBID_ATTR: ['srcdoc', 'formaction', 'action'],
  });
}

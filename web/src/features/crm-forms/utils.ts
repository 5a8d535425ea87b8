import type { Form } from '@/api/gen/model';

export { formatCount, formatDateTime } from '@/lib/format';

/** A form's name, "Untitled" when empty. */
export const formDisplayName = (name: string | null | undefined): string => (name?.trim() ? name : 'Untitled');

/** "ENABLED" when the form is enabled, else "DISABLED". */
export const formStatus = (form: Pick<Form, 'enabled'>): 'ENABLED' | 'DISABLED' => (form.enabled ? 'ENABLED' : 'DISABLED');

/** Submissions ÷ views with 2 decimals; "0.00" when the form has no views yet. */
export function conversionRate(submissions: number, views: number): string {
  if (!views || views <= 0) return '0.00';
  return (submissions / views).toFixed(2);
}

/** The public address of a form: `{origin}/form-viewer;id={id};client={client}`. */
export const publicFormLink = (origin: string, id: number, clientShort: string): string =>
  `${origin}/form-viewer;id=${id};client=${clientShort}`;

export interface ViewerParams {
  id: number | null;
  client: string | null;
}

/**
 * Reads the matrix parameters of the viewer's address (`/form-viewer;id=5;client=demo`): id and client from the
 * segment that starts with form-viewer.
 */
export function parseViewerPath(pathname: string): ViewerParams {
  const segment = pathname.split('/').find((part) => part.startsWith('form-viewer')) ?? '';
  const params = new Map<string, string>();
  for (const part of segment.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    let value = part.slice(eq + 1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // keep the raw text
    }
    params.set(part.slice(0, eq).trim(), value.trim());
  }
  const rawId = params.get('id') ?? '';
  const id = /^\d+$/.test(rawId) ? Number(rawId) : null;
  const client = params.get('client') || null;
  return { id: id !== null && id > 0 ? id : null, client };
}

/** The body the server gives a form saved without one (api/src/sanitize.rs, DEFAULT_FORM_BODY). */
export const DEFAULT_FORM_BODY =
  '<form>\n  <label for="email">Email</label>\n  <input type="email" id="email" name="email" placeholder="you@example.org" required>\n  <button type="submit">Sign up</button>\n</form>';

/** Why a form cannot be enabled; the server refuses with the same words (api/src/routes/forms/edit.rs). */
export const NOT_FILLABLE =
  'This form cannot be enabled: its body has no <form> with an e-mail field (an input of type email or named email), so visitors would have nothing to fill in.';

/**
 * Whether a visitor can sign up with this body: it has a `<form>` and an e-mail field (`type=email` or
 * `name=email`), which the public viewer reads the address from. The server checks the same.
 */
export function isFillable(bodyHtml: string): boolean {
  const doc = new DOMParser().parseFromString(bodyHtml, 'text/html');
  const email = Array.from(doc.querySelectorAll('input')).some(
    (input) =>
      (input.getAttribute('type') ?? '').trim().toLowerCase() === 'email' ||
      (input.getAttribute('name') ?? '').trim().toLowerCase() === 'email',
  );
  return doc.querySelector('form') !== null && email;
}

import { useMemo, type CSSProperties, type ReactNode, type Ref } from 'react';
import type { FormStyle } from '@/api/gen/model';
import { formDisplayName } from '../utils';

/** The default look; a form's style overrides each part it sets. */
export const DEFAULT_PRIMARY = '#0b5ed7';
export const DEFAULT_BACKGROUND = '#f1f3f5';

/** sRGB relative luminance (WCAG 2) of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white, whichever reads better on the client's colour (their button stays legible whatever they pick). */
export function readableOn(hex: string): '#000000' | '#ffffff' {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The CSS variables the stylesheet's `.styled-form-page` rules read. */
export function styleVariables(style: FormStyle | undefined): CSSProperties {
  const primary = style?.primaryColor && HEX.test(style.primaryColor) ? style.primaryColor : DEFAULT_PRIMARY;
  const background =
    style?.backgroundColor && HEX.test(style.backgroundColor) ? style.backgroundColor : DEFAULT_BACKGROUND;
  return {
    '--form-primary': primary,
    '--form-on-primary': readableOn(primary),
    '--form-background': background,
    '--form-on-background': readableOn(background),
  } as CSSProperties;
}

/** The body with the submit buttons labelled `text` (unchanged without one). Parsing runs no scripts. */
export function applyButtonText(html: string, text: string | null | undefined): string {
  const label = text?.trim();
  if (!label) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.body.querySelectorAll('button[type=submit], form button:not([type])').forEach((button) => {
    button.textContent = label;
  });
  doc.body.querySelectorAll<HTMLInputElement>('input[type=submit]').forEach((input) => {
    input.value = label;
    input.setAttribute('value', label);
  });
  return doc.body.innerHTML;
}

export interface StyledFormPageProps {
  name: string;
  style?: FormStyle;
  /** Already sanitised form body; left out for a message page (thank you). */
  bodyHtml?: string;
  bodyRef?: Ref<HTMLDivElement>;
  children?: ReactNode;
}

/**
 * A form as visitors see it: the client's background, a card with their logo, the form's name as the page heading,
 * and the body with their button text. The public viewer and the editor's preview both render this.
 */
export function StyledFormPage({ name, style, bodyHtml, bodyRef, children }: StyledFormPageProps) {
  const title = formDisplayName(name);
  const buttonText = style?.buttonText;
  // The same string on every render, so React never resets the body (and what the visitor typed) on a re-render.
  const html = useMemo(() => (bodyHtml === undefined ? undefined : applyButtonText(bodyHtml, buttonText)), [bodyHtml, buttonText]);
  return (
    <div className="styled-form-page" data-bs-theme="light" style={styleVariables(style)}>
      <main className="styled-form-card">
        {style?.logoUrl && <img className="styled-form-logo" src={style.logoUrl} alt={`${title} logo`} />}
        <h1 className="styled-form-title">{title}</h1>
        {html !== undefined && <div ref={bodyRef} className="styled-form-body" dangerouslySetInnerHTML={{ __html: html }} />}
        {children}
      </main>
    </div>
  );
}

import { clamp, LIMITS, normalizeBlock, safeColor, toStored, type Block, type Design } from './model';

/** Width of the centred inner table, in px. */
export const EMAIL_WIDTH = 600;
export const FONT_FAMILY = 'Arial, Helvetica, sans-serif';
const OUTER_BACKGROUND = '#f4f4f4';
const MARKER = 'compass-designer:';
const MARKER_RE = /^\s*<!--\s*compass-designer:([A-Za-z0-9+/=]*)\s*-->/;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escaped text with line breaks as `<br>`. Merge tags such as `{{First.Name}}` pass through unchanged. */
const textHtml = (text: string): string => escapeHtml(text).replace(/\r?\n/g, '<br>');

/** The URL when it is http(s) or mailto (trimmed), otherwise null. */
export function safeUrl(url: string, { allowMailto = true }: { allowMailto?: boolean } = {}): string | null {
  const u = url.trim();
  // No control characters or whitespace inside (they hide schemes such as "java\tscript:").
  // eslint-disable-next-line no-control-regex
  if (u === '' || /[\u0000-\u0020\u007f]/.test(u)) return null;
  if (/^https?:\/\/[^/?#]/i.test(u)) return u;
  if (allowMailto && /^mailto:./i.test(u)) return u;
  return null;
}

function utf8ToBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64ToUtf8(b64: string): string {
  const binary = atob(b64);
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export const isDesignerHtml = (html: string): boolean => MARKER_RE.test(html);

/** The blocks embedded in designer HTML, or null when `html` was not made by the designer (or is damaged). */
export function parseDesignerHtml(html: string): Block[] | null {
  const match = MARKER_RE.exec(html);
  if (!match) return null;
  try {
    const design = JSON.parse(base64ToUtf8(match[1])) as Partial<Design> | null;
    if (!design || !Array.isArray(design.blocks)) return null;
    return design.blocks.map(normalizeBlock).filter((b): b is Block => b !== null);
  } catch {
    return null;
  }
}

type Css = Record<string, string | number | undefined>;
const css = (style: Css): string =>
  Object.entries(style)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}:${v}`)
    .join(';') + ';';
const attr = (name: string, value: string | number): string => ` ${name}="${escapeHtml(String(value))}"`;

const PRESENTATION = ' role="presentation" cellpadding="0" cellspacing="0" border="0"';

function textStyle(b: Block, extra: Css = {}): Css {
  return {
    'font-family': FONT_FAMILY,
    'font-size': `${clamp(b.fontSize, LIMITS.fontSize, 16)}px`,
    'line-height': 1.5,
    color: safeColor(b.color, '#212529'),
    'text-align': b.align,
    ...extra,
  };
}

function blockCell(b: Block): string {
  const padding = clamp(b.padding, LIMITS.padding, 16);
  const background = safeColor(b.background, '#ffffff');
  const cell = (style: Css, inner: string, align: string = b.align) =>
    `<td${attr('align', align)}${attr('bgcolor', background)} style="${css({ padding: `${padding}px`, 'background-color': background, ...style })}">${inner}</td>`;

  switch (b.type) {
    case 'heading':
      return cell(
        {},
        `<h1 style="${css(textStyle(b, { margin: 0, 'line-height': 1.25, 'font-weight': 'bold' }))}">${textHtml(b.text)}</h1>`,
      );
    case 'text':
      return cell(textStyle(b), textHtml(b.text));
    case 'button': {
      const href = safeUrl(b.href);
      const color = safeColor(b.color, '#ffffff');
      const linkStyle = css({
        display: 'inline-block',
        padding: '12px 24px',
        'font-family': FONT_FAMILY,
        'font-size': `${clamp(b.fontSize, LIMITS.fontSize, 16)}px`,
        'line-height': 1.2,
        'font-weight': 'bold',
        color,
        'text-decoration': 'none',
        'border-radius': '4px',
      });
      const link = `<a${href ? attr('href', href) + ' target="_blank"' : ''} style="${linkStyle}">${textHtml(b.text)}</a>`;
      const button =
        `<table${PRESENTATION}${attr('align', b.align)} style="border-collapse:separate;">` +
        `<tr><td align="center"${attr('bgcolor', background)} style="${css({ 'border-radius': '4px', 'background-color': background })}">${link}</td></tr></table>`;
      // The row itself stays white: the colour belongs to the button.
      return `<td${attr('align', b.align)} style="${css({ padding: `${padding}px` })}">${button}</td>`;
    }
    case 'image': {
      const src = safeUrl(b.src, { allowMailto: false });
      const width = Math.min(clamp(b.width, LIMITS.width, EMAIL_WIDTH), EMAIL_WIDTH - 2 * padding);
      if (!src) return cell({ 'font-size': 0, 'line-height': 0 }, '&nbsp;');
      const img =
        `<img${attr('src', src)}${attr('width', width)}${attr('alt', b.alt)} style="${css({
          display: 'inline-block',
          width: `${width}px`,
          'max-width': '100%',
          height: 'auto',
          border: 0,
          outline: 'none',
          'text-decoration': 'none',
        })}">`;
      const href = safeUrl(b.href);
      return cell({ 'line-height': 0 }, href ? `<a${attr('href', href)} target="_blank">${img}</a>` : img);
    }
    case 'divider': {
      const line = safeColor(b.color, '#dee2e6');
      return cell(
        {},
        `<table${PRESENTATION} width="100%" style="border-collapse:collapse;"><tr><td style="${css({
          'border-top': `1px solid ${line}`,
          'font-size': 0,
          'line-height': 0,
          height: '1px',
        })}">&nbsp;</td></tr></table>`,
      );
    }
    case 'spacer': {
      const height = clamp(b.height, LIMITS.height, 24);
      return `<td${attr('height', height)}${attr('bgcolor', background)} style="${css({
        height: `${height}px`,
        'font-size': 0,
        'line-height': 0,
        'background-color': background,
      })}">&nbsp;</td>`;
    }
    case 'columns': {
      const col = (text: string, side: 'left' | 'right') =>
        `<td width="50%" valign="top" style="${css(
          textStyle(b, { width: '50%', [side === 'left' ? 'padding-right' : 'padding-left']: '8px' }),
        )}">${textHtml(text)}</td>`;
      return cell(
        {},
        `<table${PRESENTATION} width="100%" style="border-collapse:collapse;"><tr>${col(b.text, 'left')}${col(b.text2, 'right')}</tr></table>`,
      );
    }
  }
}

/** The e-mail-safe HTML of a design: inline styles only, with the block JSON embedded in a leading comment. */
export function designToHtml(blocks: Block[]): string {
  const design: Design = { version: 1, blocks: toStored(blocks) };
  const rows = blocks.length
    ? blocks.map((b) => `<tr>${blockCell(b)}</tr>`)
    : ['<tr><td style="font-size:0;line-height:0;">&nbsp;</td></tr>'];
  return [
    `<!-- ${MARKER}${utf8ToBase64(JSON.stringify(design))} -->`,
    `<table${PRESENTATION} width="100%"${attr('bgcolor', OUTER_BACKGROUND)} style="width:100%;border-collapse:collapse;background-color:${OUTER_BACKGROUND};">`,
    '<tr><td align="center" style="padding:16px 0;">',
    `<table${PRESENTATION} width="${EMAIL_WIDTH}" align="center" bgcolor="#ffffff" style="width:${EMAIL_WIDTH}px;max-width:${EMAIL_WIDTH}px;margin:0 auto;border-collapse:collapse;background-color:#ffffff;">`,
    ...rows,
    '</table>',
    '</td></tr>',
    '</table>',
  ].join('\n');
}

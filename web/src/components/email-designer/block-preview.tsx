import type { CSSProperties } from 'react';
import { EMAIL_WIDTH, FONT_FAMILY, safeUrl } from './html';
import type { Block } from './model';

/** The canvas rendering of a block (React elements with styles like the e-mail's). */
export function BlockPreview({ block: b }: { block: Block }) {
  const padding = b.padding;
  const row: CSSProperties = {
    padding,
    background: b.background,
    color: b.color,
    textAlign: b.align,
    fontFamily: FONT_FAMILY,
    fontSize: b.fontSize,
    lineHeight: 1.5,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  };
  switch (b.type) {
    case 'heading':
      return <div style={{ ...row, fontWeight: 'bold', lineHeight: 1.25 }}>{b.text}</div>;
    case 'text':
      return <div style={row}>{b.text}</div>;
    case 'button':
      return (
        <div style={{ ...row, background: '#ffffff' }}>
          <span
            style={{
              display: 'inline-block',
              padding: '12px 24px',
              background: b.background,
              color: b.color,
              borderRadius: 4,
              fontWeight: 'bold',
              lineHeight: 1.2,
            }}
          >
            {b.text}
          </span>
        </div>
      );
    case 'image': {
      const src = safeUrl(b.src, { allowMailto: false });
      const width = Math.min(b.width, EMAIL_WIDTH - 2 * padding);
      return (
        <div style={{ ...row, lineHeight: 0 }}>
          {src ? (
            <img src={src} alt={b.alt} width={width} style={{ maxWidth: '100%', height: 'auto' }} />
          ) : (
            <span
              className="d-inline-block border rounded text-body-secondary small p-4"
              style={{ lineHeight: 1.5, background: '#f8f9fa' }}
            >
              Image: set a source URL
            </span>
          )}
        </div>
      );
    }
    case 'divider':
      return (
        <div style={{ ...row }}>
          <div style={{ borderTop: `1px solid ${b.color}` }} />
        </div>
      );
    case 'spacer':
      return <div style={{ height: b.height, background: b.background }} aria-hidden />;
    case 'columns':
      return (
        <div style={{ ...row, display: 'flex', gap: 16 }}>
          <div style={{ flex: 1 }}>{b.text}</div>
          <div style={{ flex: 1 }}>{b.text2}</div>
        </div>
      );
  }
}

import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { FormStyle } from '@/api/gen/model';
import { StyledFormPage } from './styled-form';

export interface FormPreviewProps {
  /** The frame's accessible name. */
  title: string;
  name: string;
  style: FormStyle;
  bodyHtml: string;
}

/**
 * The editor's preview: the viewer's own component, rendered into a sandboxed frame. Without allow-scripts nothing in
 * an unsaved body runs (handlers included) and its form cannot submit; allow-same-origin only lets this page draw
 * into the frame. The app's stylesheets are copied in so the preview looks as the public page does.
 */
export function FormPreview({ title, name, style, bodyHtml }: FormPreviewProps) {
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const attach = (frame: HTMLIFrameElement | null) => {
    const doc = frame?.contentDocument;
    if (!doc || doc.body === target) return;
    for (const sheet of document.querySelectorAll('link[rel="stylesheet"], style')) {
      doc.head.appendChild(doc.importNode(sheet, true));
    }
    setTarget(doc.body);
  };
  return (
    <>
      <iframe
        ref={attach}
        title={title}
        sandbox="allow-same-origin"
        className="form-preview-frame"
        onLoad={(e) => attach(e.currentTarget)}
      />
      {target && createPortal(<StyledFormPage name={name} style={style} bodyHtml={bodyHtml} />, target)}
    </>
  );
}

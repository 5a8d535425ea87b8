import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import ToggleButton from 'react-bootstrap/ToggleButton';
import { EmailDesigner, isDesignerHtml } from './email-designer';
import { RichTextEditor, type RichTextEditorHandle } from './rich-text-editor';

export type HtmlEditorMode = 'rich' | 'source' | 'designer';

const MODES: { mode: HtmlEditorMode; label: string }[] = [
  { mode: 'rich', label: 'Rich text' },
  { mode: 'source', label: 'HTML source' },
  { mode: 'designer', label: 'Designer' },
];

export interface HtmlBodyEditorProps {
  /** Prefix of the element ids (one editor per page section). */
  id: string;
  value: string;
  onChange: (html: string) => void;
  /**
   * Merge tags offered as buttons that insert `{{tag}}` at the cursor (or append it); with a default typed beside
   * them, `{{tag|default}}`, which a recipient without the value sees instead of a blank.
   */
  mergeTags?: string[];
  defaultMode?: HtmlEditorMode;
  /** Title of the sandboxed preview shown next to the HTML source. */
  previewTitle?: string;
}

/** The merge tag as inserted: `{{tag}}`, or `{{tag|default}}` when a default is given (braces and bars removed). */
export function mergeTagText(tag: string, fallback: string): string {
  const clean = fallback.replace(/[{}|]/g, '').trim();
  return clean ? `{{${tag}|${clean}}}` : `{{${tag}}}`;
}

/** Inserts `text` into `value` over the selection [start, end) (appends when there is none). */
export function insertAt(value: string, text: string, start: number | null, end: number | null): string {
  if (start === null) return value + text;
  const to = end ?? start;
  return value.slice(0, start) + text + value.slice(to);
}

/**
 * An e-mail body editor with modes: rich text, HTML source (with a sandboxed preview) and the drag-and-drop
 * designer (a body made by the designer opens in it).
 * Staff HTML is previewed only in `<iframe sandbox="" srcdoc>`.
 */
export function HtmlBodyEditor({
  id,
  value,
  onChange,
  mergeTags = [],
  defaultMode = 'rich',
  previewTitle = 'Body preview',
}: HtmlBodyEditorProps) {
  const [mode, setMode] = useState<HtmlEditorMode>(() => (isDesignerHtml(value) ? 'designer' : defaultMode));
  const source = useRef<HTMLTextAreaElement>(null);
  const rich = useRef<RichTextEditorHandle>(null);
  // The source cursor, remembered because the buttons take focus.
  const cursor = useRef<{ start: number; end: number } | null>(null);
  const [tagDefault, setTagDefault] = useState('');

  const rememberCursor = () => {
    const el = source.current;
    if (el) cursor.current = { start: el.selectionStart, end: el.selectionEnd };
  };

  const insertTag = (tag: string) => {
    const text = mergeTagText(tag, tagDefault);
    if (mode === 'rich') {
      rich.current?.insertText(text);
    } else if (mode === 'source') {
      const at = cursor.current;
      const next = insertAt(value, text, at?.start ?? null, at?.end ?? null);
      const caret = (at ? at.start : value.length) + text.length;
      cursor.current = { start: caret, end: caret };
      onChange(next);
      requestAnimationFrame(() => {
        const el = source.current;
        if (!el) return;
        el.focus();
        el.setSelectionRange(caret, caret);
      });
    }
  };

  return (
    <div className="html-body-editor">
      <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
        <ButtonGroup size="sm" aria-label="Editor mode">
          {MODES.map(({ mode: m, label }) => (
            <ToggleButton
              key={m}
              id={`${id}-mode-${m}`}
              type="radio"
              variant="outline-primary"
              name={`${id}-mode`}
              value={m}
              checked={mode === m}
              onChange={() => {
                cursor.current = null;
                setMode(m);
              }}
            >
              {label}
            </ToggleButton>
          ))}
        </ButtonGroup>
        {mergeTags.length > 0 && (
          <div className="d-flex gap-1 align-items-center ms-auto" role="group" aria-label="Merge tags">
            <span className="small text-body-secondary">Merge tags:</span>
            {mergeTags.map((tag) => (
              <Button
                key={tag}
                size="sm"
                variant="outline-secondary"
                disabled={mode === 'designer'}
                title={
                  mode === 'designer'
                    ? `Type ${mergeTagText(tag, tagDefault)} into a text block of the design`
                    : `Insert ${mergeTagText(tag, tagDefault)}`
                }
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => insertTag(tag)}
              >
                {tag}
              </Button>
            ))}
            <Form.Control
              size="sm"
              id={`${id}-merge-default`}
              aria-label="Merge tag default"
              placeholder="Default if empty, e.g. friend"
              title="Shown to recipients who have no value for the tag"
              value={tagDefault}
              maxLength={60}
              onChange={(e) => setTagDefault(e.target.value)}
              style={{ width: '14rem' }}
            />
          </div>
        )}
      </div>
      {mode === 'rich' && <RichTextEditor ref={rich} id={`${id}-rich`} label="Body" value={value} onChange={onChange} />}
      {mode === 'designer' && <EmailDesigner value={value} onChange={onChange} />}
      {mode === 'source' && (
        <div className="row g-3">
          <Form.Group className="col-lg-6" controlId={`${id}-source`}>
            <Form.Label>Body HTML</Form.Label>
            <Form.Control
              ref={source}
              as="textarea"
              rows={18}
              className="font-monospace"
              spellCheck={false}
              value={value}
              onChange={(e) => {
                onChange(e.target.value);
                rememberCursor();
              }}
              onSelect={rememberCursor}
              onKeyUp={rememberCursor}
              onClick={rememberCursor}
            />
          </Form.Group>
          <div className="col-lg-6">
            <div className="form-label">Preview</div>
            {/* The body never enters the app's DOM: it renders in a sandbox without scripts. */}
            <iframe
              title={previewTitle}
              sandbox=""
              srcDoc={value}
              className="w-100 border rounded bg-white"
              style={{ height: '24rem' }}
            />
          </div>
        </div>
      )}
    </div>
  );
}

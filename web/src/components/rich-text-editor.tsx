import { forwardRef, useEffect, useImperativeHandle, useRef, type CSSProperties, type MouseEvent } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import ButtonToolbar from 'react-bootstrap/ButtonToolbar';
import { sanitizeHtml } from '@/lib/sanitize-html';

export interface RichTextEditorProps {
  value: string;
  /** Called with the editor's HTML after every edit. */
  onChange: (html: string) => void;
  /** The accessible name of the editable area. */
  label?: string;
  id?: string;
}

export interface RichTextEditorHandle {
  /** Inserts plain text at the caret (the last selection inside the editor), or appends it. */
  insertText: (text: string) => void;
}

type Command = 'bold' | 'italic' | 'underline' | 'insertUnorderedList' | 'insertOrderedList';

const COMMANDS: { command: Command; label: string; text: string; style?: CSSProperties }[] = [
  { command: 'bold', label: 'Bold', text: 'B', style: { fontWeight: 'bold' } },
  { command: 'italic', label: 'Italic', text: 'I', style: { fontStyle: 'italic' } },
  { command: 'underline', label: 'Underline', text: 'U', style: { textDecoration: 'underline' } },
];

/**
 * A small rich-text editor: a contentEditable area with a toolbar for bold, italic, underline, link and
 * bulleted/numbered lists. The incoming HTML is sanitised before it enters the editable area.
 */
export const RichTextEditor = forwardRef<RichTextEditorHandle, RichTextEditorProps>(function RichTextEditor(
  { value, onChange, label = 'Rich text', id },
  ref,
) {
  const area = useRef<HTMLDivElement>(null);
  // The HTML this editor last reported (or loaded): a value equal to it needs no reload (keeps the caret).
  const current = useRef<string | null>(null);
  const savedRange = useRef<Range | null>(null);

  useEffect(() => {
    const el = area.current;
    if (!el || value === current.current) return;
    el.innerHTML = sanitizeHtml(value);
    current.current = value;
    savedRange.current = null;
  }, [value]);

  const emit = () => {
    const el = area.current;
    if (!el) return;
    current.current = el.innerHTML;
    onChange(el.innerHTML);
  };

  const saveSelection = () => {
    const selection = window.getSelection();
    const el = area.current;
    if (!selection || selection.rangeCount === 0 || !el) return;
    const range = selection.getRangeAt(0);
    if (el.contains(range.commonAncestorContainer)) savedRange.current = range.cloneRange();
  };

  const restoreSelection = (): Range | null => {
    const el = area.current;
    const range = savedRange.current;
    if (!el || !range || !el.contains(range.commonAncestorContainer)) return null;
    el.focus();
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return range;
  };

  useImperativeHandle(ref, () => ({
    insertText: (text: string) => {
      const el = area.current;
      if (!el) return;
      const range = restoreSelection();
      const node = document.createTextNode(text);
      if (range) {
        range.deleteContents();
        range.insertNode(node);
        range.setStartAfter(node);
        range.collapse(true);
        savedRange.current = range.cloneRange();
      } else {
        el.appendChild(node);
      }
      emit();
    },
  }));

  const exec = (command: Command | 'createLink', arg?: string) => {
    restoreSelection();
    if (typeof document.execCommand === 'function') document.execCommand(command, false, arg);
    saveSelection();
    emit();
  };

  const addLink = () => {
    const url = window.prompt('Link address', 'https://');
    if (!url) return;
    if (!/^(https?:|mailto:)/i.test(url.trim())) return;
    exec('createLink', url.trim());
  };

  // Toolbar buttons keep the editor's selection: they act on mouse down without taking focus.
  const keepSelection = (event: MouseEvent) => event.preventDefault();

  return (
    <div className="rich-text-editor border rounded">
      <ButtonToolbar className="border-bottom p-1 gap-1" aria-label="Formatting">
        <ButtonGroup size="sm">
          {COMMANDS.map(({ command, label: name, text, style }) => (
            <Button
              key={command}
              variant="outline-secondary"
              aria-label={name}
              title={name}
              onMouseDown={keepSelection}
              onClick={() => exec(command)}
            >
              <span style={style}>{text}</span>
            </Button>
          ))}
        </ButtonGroup>
        <ButtonGroup size="sm">
          <Button variant="outline-secondary" aria-label="Link" title="Link" onMouseDown={keepSelection} onClick={addLink}>
            Link
          </Button>
        </ButtonGroup>
        <ButtonGroup size="sm">
          <Button
            variant="outline-secondary"
            aria-label="Bulleted list"
            title="Bulleted list"
            onMouseDown={keepSelection}
            onClick={() => exec('insertUnorderedList')}
          >
            • List
          </Button>
          <Button
            variant="outline-secondary"
            aria-label="Numbered list"
            title="Numbered list"
            onMouseDown={keepSelection}
            onClick={() => exec('insertOrderedList')}
          >
            1. List
          </Button>
        </ButtonGroup>
      </ButtonToolbar>
      <div
        ref={area}
        id={id}
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        contentEditable
        suppressContentEditableWarning
        className="p-2 bg-body"
        style={{ minHeight: '18rem', overflow: 'auto' }}
        onInput={emit}
        onKeyUp={saveSelection}
        onMouseUp={saveSelection}
        onBlur={saveSelection}
      />
    </div>
  );
});

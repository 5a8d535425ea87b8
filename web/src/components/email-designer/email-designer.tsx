import { useEffect, useMemo, useRef, useState, type CSSProperties, type DragEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import { designToHtml, EMAIL_WIDTH, FONT_FAMILY, parseDesignerHtml, safeUrl } from './html';
import { BLOCK_TYPES, blockLabel, createBlock, LIMITS, type Align, type Block, type BlockType } from './model';

/** Spec: "Email designer change debounce 100 ms" — the delay between an edit and `onChange`. */
export const EMAIL_DESIGNER_CHANGE_DEBOUNCE_MS = 100;

/** The drag-and-drop payload type: `new:<block type>` from the palette, `move:<block id>` from the canvas. */
export const DRAG_TYPE = 'application/x-compass-email-block';

export interface EmailDesignerProps {
  value: string;
  onChange: (html: string) => void;
}

type Mode = 'design' | 'foreign';
interface DesignerState {
  mode: Mode;
  blocks: Block[];
  selectedId: string | null;
  /** True once the user changed the design (only then is HTML emitted). */
  dirty: boolean;
}

function stateFromValue(value: string): DesignerState {
  const blocks = parseDesignerHtml(value);
  if (blocks) return { mode: 'design', blocks, selectedId: null, dirty: false };
  return { mode: value.trim() === '' ? 'design' : 'foreign', blocks: [], selectedId: null, dirty: false };
}

const hasPayload = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes(DRAG_TYPE);

/** Moves the item at `from` so that it lands before the item that was at `to` (`to` may be the length). */
function moveTo<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to > from ? to - 1 : to, 0, item);
  return next;
}

/**
 * A drag-and-drop e-mail designer: palette, canvas and properties panel. The design is a JSON block list,
 * emitted (debounced) as e-mail-safe HTML with inline styles and the JSON embedded in a leading comment, so a
 * designer body reloads as blocks. A body made elsewhere is kept until the user chooses "Start a design".
 */
export function EmailDesigner({ value, onChange }: EmailDesignerProps) {
  const [state, setState] = useState<DesignerState>(() => stateFromValue(value));
  const [syncedValue, setSyncedValue] = useState(value);
  const [lastEmitted, setLastEmitted] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const { mode, blocks, selectedId, dirty } = state;
  const html = useMemo(() => designToHtml(blocks), [blocks]);

  // A new `value` from outside (not our own echo) reloads the designer.
  if (value !== syncedValue) {
    setSyncedValue(value);
    if (value !== lastEmitted && value !== html) setState(stateFromValue(value));
  }

  const onChangeRef = useRef(onChange);
  const pending = useRef<string | null>(null);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    if (!dirty) {
      pending.current = null;
      return;
    }
    pending.current = html;
    const timer = window.setTimeout(() => {
      pending.current = null;
      setLastEmitted(html);
      onChangeRef.current(html);
    }, EMAIL_DESIGNER_CHANGE_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [html, dirty]);

  // Leaving with an edit still waiting: hand it over instead of losing it.
  useEffect(
    () => () => {
      if (pending.current !== null) onChangeRef.current(pending.current);
    },
    [],
  );

  const edit = (blocksNext: Block[], selected: string | null = selectedId) =>
    setState((s) => ({ ...s, blocks: blocksNext, selectedId: selected, dirty: true }));

  const insert = (type: BlockType, index: number = blocks.length) => {
    const block = createBlock(type);
    edit([...blocks.slice(0, index), block, ...blocks.slice(index)], block.id);
  };
  const update = (id: string, patch: Partial<Block>) => edit(blocks.map((b) => (b.id === id ? { ...b, ...patch } : b)));
  const remove = (id: string) => edit(blocks.filter((b) => b.id !== id), null);
  const move = (id: string, delta: -1 | 1) => {
    const from = blocks.findIndex((b) => b.id === id);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= blocks.length) return;
    edit(moveTo(blocks, from, delta > 0 ? to + 1 : to));
  };
  const select = (id: string | null) => setState((s) => ({ ...s, selectedId: id }));

  // ---- drag and drop ----
  const dragStart = (e: DragEvent, payload: string) => {
    e.dataTransfer.setData(DRAG_TYPE, payload);
    e.dataTransfer.effectAllowed = payload.startsWith('new:') ? 'copy' : 'move';
  };
  /** The insert position for a drop over block `index`: before it in its upper half, after it otherwise. */
  const positionOver = (e: DragEvent<HTMLElement>, index: number) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return e.clientY < rect.top + rect.height / 2 ? index : index + 1;
  };
  const dragOver = (e: DragEvent<HTMLElement>, index: number | null) => {
    if (!hasPayload(e)) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer.dropEffect = e.dataTransfer.effectAllowed === 'copy' ? 'copy' : 'move';
    const at = index === null ? blocks.length : positionOver(e, index);
    if (at !== dropIndex) setDropIndex(at);
  };
  const drop = (e: DragEvent<HTMLElement>, index: number | null) => {
    const payload = e.dataTransfer?.getData(DRAG_TYPE) ?? '';
    setDropIndex(null);
    if (!payload) return;
    e.preventDefault();
    e.stopPropagation();
    const at = index === null ? blocks.length : positionOver(e, index);
    if (payload.startsWith('new:')) {
      const type = payload.slice(4);
      const known = BLOCK_TYPES.find((b) => b.type === type);
      if (known) insert(known.type, at);
    } else if (payload.startsWith('move:')) {
      const from = blocks.findIndex((b) => b.id === payload.slice(5));
      if (from >= 0 && at !== from && at !== from + 1) edit(moveTo(blocks, from, at));
    }
  };

  if (mode === 'foreign') {
    return (
      <div className="email-designer">
        <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto">This body was not made with the designer. Starting a design replaces it.</span>
          <Button
            variant="primary"
            onClick={() => setState({ mode: 'design', blocks: [], selectedId: null, dirty: true })}
          >
            Start a design
          </Button>
        </Alert>
        {/* The existing body never enters the app's DOM: it renders in a sandbox without scripts. */}
        <iframe
          title="Current body"
          sandbox=""
          srcDoc={value}
          className="w-100 border rounded bg-white"
          style={{ height: '24rem' }}
        />
      </div>
    );
  }

  const selected = blocks.find((b) => b.id === selectedId) ?? null;
  const selectedIndex = selected ? blocks.indexOf(selected) : -1;

  return (
    <div className="email-designer row g-3">
      <div className="col-lg-3">
        <h2 className="h6">Blocks</h2>
        <p className="small text-body-secondary mb-2">Drag a block onto the e-mail, or add it at the end.</p>
        <ul className="list-unstyled d-grid gap-2 mb-0" aria-label="Block palette">
          {BLOCK_TYPES.map(({ type, label }) => (
            <li
              key={type}
              draggable
              onDragStart={(e) => dragStart(e, `new:${type}`)}
              onDragEnd={() => setDropIndex(null)}
              className="d-flex align-items-center justify-content-between border rounded px-2 py-1 bg-body"
              style={{ cursor: 'grab' }}
              data-testid={`palette-${type}`}
            >
              <span>{label}</span>
              <Button size="sm" variant="outline-primary" aria-label={`Add ${label}`} onClick={() => insert(type)}>
                Add
              </Button>
            </li>
          ))}
        </ul>
      </div>

      <div className="col-lg-5">
        <h2 className="h6">E-mail</h2>
        <div
          className="border rounded p-2 bg-body-tertiary overflow-auto"
          style={{ minHeight: '12rem' }}
          data-testid="designer-canvas"
          onDragOver={(e) => dragOver(e, null)}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropIndex(null);
          }}
          onDrop={(e) => drop(e, null)}
        >
          {blocks.length === 0 ? (
            <div className="text-center text-body-secondary p-5 border border-2 rounded" style={{ borderStyle: 'dashed' }}>
              Drop blocks here.
            </div>
          ) : (
            <ol className="list-unstyled mb-0 mx-auto" style={{ maxWidth: EMAIL_WIDTH }} aria-label="E-mail blocks">
              {blocks.map((b, i) => (
                <li
                  key={b.id}
                  draggable
                  onDragStart={(e) => {
                    e.stopPropagation();
                    dragStart(e, `move:${b.id}`);
                  }}
                  onDragEnd={() => setDropIndex(null)}
                  onDragOver={(e) => dragOver(e, i)}
                  onDrop={(e) => drop(e, i)}
                  data-testid="canvas-block"
                  style={{
                    cursor: 'grab',
                    boxShadow:
                      dropIndex === i
                        ? 'inset 0 3px 0 var(--bs-primary)'
                        : dropIndex === i + 1 && i === blocks.length - 1
                          ? 'inset 0 -3px 0 var(--bs-primary)'
                          : undefined,
                  }}
                >
                  <div
                    role="button"
                    tabIndex={0}
                    aria-pressed={b.id === selectedId}
                    aria-label={`${blockLabel(b.type)} block ${i + 1}`}
                    onClick={() => select(b.id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        select(b.id);
                      }
                    }}
                    style={{ outline: b.id === selectedId ? '2px solid var(--bs-primary)' : undefined, outlineOffset: -2 }}
                  >
                    <BlockPreview block={b} />
                  </div>
                  {b.id === selectedId && (
                    // Filled buttons: outline colours on the canvas's tinted background fall below 4.5:1 (Delete 4.29).
                    <ButtonGroup size="sm" className="my-1" aria-label="Selected block">
                      <Button variant="secondary" onClick={() => move(b.id, -1)} disabled={i === 0}>
                        Move up
                      </Button>
                      <Button
                        variant="secondary"
                        onClick={() => move(b.id, 1)}
                        disabled={i === blocks.length - 1}
                      >
                        Move down
                      </Button>
                      <Button variant="danger" onClick={() => remove(b.id)}>
                        Delete
                      </Button>
                    </ButtonGroup>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      </div>

      <div className="col-lg-4">
        <h2 className="h6">Properties</h2>
        {selected ? (
          <BlockProperties
            key={selected.id}
            block={selected}
            position={selectedIndex + 1}
            onPatch={(patch) => update(selected.id, patch)}
          />
        ) : (
          <p className="text-body-secondary small">Select a block to edit it.</p>
        )}
      </div>
    </div>
  );
}

/** The canvas rendering of a block (React elements with styles like the e-mail's). */
function BlockPreview({ block: b }: { block: Block }) {
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

const ALIGNS: { value: Align; label: string }[] = [
  { value: 'left', label: 'Left' },
  { value: 'center', label: 'Center' },
  { value: 'right', label: 'Right' },
];

function BlockProperties({
  block: b,
  position,
  onPatch,
}: {
  block: Block;
  position: number;
  onPatch: (patch: Partial<Block>) => void;
}) {
  const id = (field: string) => `email-designer-${b.id}-${field}`;
  const t = b.type;
  const hasText = t === 'heading' || t === 'text' || t === 'button';
  const hasFont = hasText || t === 'columns';
  const hasAlign = hasText || t === 'image';
  const hasColor = hasFont || t === 'divider';
  const hasPadding = t !== 'spacer';

  const urlField = (field: 'href' | 'src', label: string, allowMailto: boolean) => {
    const raw = b[field];
    const invalid = raw.trim() !== '' && safeUrl(raw, { allowMailto }) === null;
    return (
      <Form.Group className="mb-2" controlId={id(field)}>
        <Form.Label>{label}</Form.Label>
        <Form.Control
          type="url"
          value={raw}
          placeholder="https://"
          isInvalid={invalid}
          onChange={(e) => onPatch({ [field]: e.target.value })}
        />
        <Form.Control.Feedback type="invalid">
          {allowMailto ? 'Only http(s) and mailto links are kept.' : 'Only http(s) images are kept.'}
        </Form.Control.Feedback>
      </Form.Group>
    );
  };

  const range = (field: 'padding' | 'fontSize' | 'height' | 'width', label: string) => (
    <Form.Group className="mb-2" controlId={id(field)}>
      <Form.Label>
        {label} ({b[field]} px)
      </Form.Label>
      <Form.Range
        min={LIMITS[field].min}
        max={LIMITS[field].max}
        value={b[field]}
        onChange={(e) => onPatch({ [field]: Number(e.target.value) })}
      />
    </Form.Group>
  );

  const color = (field: 'background' | 'color', label: string) => (
    <Form.Group className="mb-2" controlId={id(field)}>
      <Form.Label>{label}</Form.Label>
      <Form.Control type="color" value={b[field]} onChange={(e) => onPatch({ [field]: e.target.value })} />
    </Form.Group>
  );

  return (
    <form aria-label={`${blockLabel(t)} block ${position} properties`} onSubmit={(e) => e.preventDefault()}>
      <p className="small text-body-secondary mb-2">
        {blockLabel(t)} block {position}. Merge tags such as {'{{First.Name}}'} are kept as typed.
      </p>
      {hasText && (
        <Form.Group className="mb-2" controlId={id('text')}>
          <Form.Label>Text</Form.Label>
          {t === 'text' ? (
            <Form.Control as="textarea" rows={4} value={b.text} onChange={(e) => onPatch({ text: e.target.value })} />
          ) : (
            <Form.Control value={b.text} onChange={(e) => onPatch({ text: e.target.value })} />
          )}
        </Form.Group>
      )}
      {t === 'columns' && (
        <>
          <Form.Group className="mb-2" controlId={id('text')}>
            <Form.Label>Left column text</Form.Label>
            <Form.Control as="textarea" rows={3} value={b.text} onChange={(e) => onPatch({ text: e.target.value })} />
          </Form.Group>
          <Form.Group className="mb-2" controlId={id('text2')}>
            <Form.Label>Right column text</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={b.text2}
              onChange={(e) => onPatch({ text2: e.target.value })}
            />
          </Form.Group>
        </>
      )}
      {t === 'image' && (
        <>
          {urlField('src', 'Image source URL', false)}
          <Form.Group className="mb-2" controlId={id('alt')}>
            <Form.Label>Alt text</Form.Label>
            <Form.Control value={b.alt} onChange={(e) => onPatch({ alt: e.target.value })} />
          </Form.Group>
          {range('width', 'Width')}
        </>
      )}
      {(t === 'button' || t === 'image') && urlField('href', 'Link URL', true)}
      {hasAlign && (
        <Form.Group className="mb-2" controlId={id('align')}>
          <Form.Label>Alignment</Form.Label>
          <Form.Select value={b.align} onChange={(e) => onPatch({ align: e.target.value as Align })}>
            {ALIGNS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      <div className="d-flex gap-3">
        {color('background', t === 'button' ? 'Button colour' : 'Background colour')}
        {hasColor && color('color', t === 'divider' ? 'Line colour' : 'Text colour')}
      </div>
      {hasFont && range('fontSize', 'Font size')}
      {hasPadding && range('padding', 'Padding')}
      {t === 'spacer' && range('height', 'Height')}
    </form>
  );
}

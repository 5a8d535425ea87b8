import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { BlockPreview } from './block-preview';
import { BlockProperties } from './block-properties';
import { designToHtml, EMAIL_WIDTH, parseDesignerHtml } from './html';
import { BLOCK_TYPES, blockLabel, createBlock, type Block, type BlockType } from './model';

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

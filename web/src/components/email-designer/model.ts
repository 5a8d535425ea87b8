/** The e-mail designer's design state: a JSON list of blocks (no ids in the stored form). */

export type BlockType = 'heading' | 'text' | 'button' | 'image' | 'divider' | 'spacer' | 'columns';
export type Align = 'left' | 'center' | 'right';

export interface Block {
  /** Client-side identity for selection and drag-and-drop; not stored in the embedded JSON. */
  id: string;
  type: BlockType;
  /** Heading/Text/Button text; left column of Two columns. */
  text: string;
  /** Right column of Two columns. */
  text2: string;
  /** Link of Button and Image (http(s) or mailto; others are dropped from the output). */
  href: string;
  /** Image source (http(s) only). */
  src: string;
  alt: string;
  align: Align;
  /** Row background (the button's own colour for Button). */
  background: string;
  /** Text colour (the line colour for Divider). */
  color: string;
  /** Padding in px around the block's content. */
  padding: number;
  fontSize: number;
  /** Spacer height in px. */
  height: number;
  /** Image width in px (at most the content width). */
  width: number;
}

export type StoredBlock = Omit<Block, 'id'>;

export interface Design {
  version: 1;
  blocks: StoredBlock[];
}

export const BLOCK_TYPES: { type: BlockType; label: string }[] = [
  { type: 'heading', label: 'Heading' },
  { type: 'text', label: 'Text' },
  { type: 'button', label: 'Button' },
  { type: 'image', label: 'Image' },
  { type: 'divider', label: 'Divider' },
  { type: 'spacer', label: 'Spacer' },
  { type: 'columns', label: 'Two columns' },
];

export const blockLabel = (type: BlockType): string => BLOCK_TYPES.find((b) => b.type === type)?.label ?? type;

export const LIMITS = {
  padding: { min: 0, max: 60 },
  fontSize: { min: 8, max: 72 },
  height: { min: 4, max: 200 },
  width: { min: 16, max: 600 },
} as const;

const BASE: StoredBlock = {
  type: 'text',
  text: '',
  text2: '',
  href: '',
  src: '',
  alt: '',
  align: 'left',
  background: '#ffffff',
  color: '#212529',
  padding: 16,
  fontSize: 16,
  height: 24,
  width: 600,
};

const DEFAULTS: Record<BlockType, Partial<StoredBlock>> = {
  heading: { text: 'Heading', fontSize: 28 },
  text: { text: 'Write your text here.' },
  button: { text: 'Click here', align: 'center', background: '#0d6efd', color: '#ffffff' },
  image: { align: 'center' },
  divider: { color: '#dee2e6' },
  spacer: { padding: 0 },
  columns: { text: 'Left column', text2: 'Right column' },
};

let nextId = 1;
export const newBlockId = (): string => `blk-${nextId++}`;

export function createBlock(type: BlockType): Block {
  return { ...BASE, ...DEFAULTS[type], type, id: newBlockId() };
}

const HEX = /^#[0-9a-f]{6}$/i;
export const safeColor = (value: unknown, fallback: string): string =>
  typeof value === 'string' && HEX.test(value) ? value.toLowerCase() : fallback;

export const clamp = (value: unknown, { min, max }: { min: number; max: number }, fallback: number): number => {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : fallback;
  return Math.min(max, Math.max(min, n));
};

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const isType = (value: unknown): value is BlockType => BLOCK_TYPES.some((b) => b.type === value);
const isAlign = (value: unknown): value is Align => value === 'left' || value === 'center' || value === 'right';

/** A block read from untrusted JSON, with every field checked (unknown types give null). */
export function normalizeBlock(raw: unknown): Block | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (!isType(r.type)) return null;
  const d = { ...BASE, ...DEFAULTS[r.type] };
  return {
    id: newBlockId(),
    type: r.type,
    text: str(r.text, d.text),
    text2: str(r.text2, d.text2),
    href: str(r.href),
    src: str(r.src),
    alt: str(r.alt),
    align: isAlign(r.align) ? r.align : d.align,
    background: safeColor(r.background, d.background),
    color: safeColor(r.color, d.color),
    padding: clamp(r.padding, LIMITS.padding, d.padding),
    fontSize: clamp(r.fontSize, LIMITS.fontSize, d.fontSize),
    height: clamp(r.height, LIMITS.height, d.height),
    width: clamp(r.width, LIMITS.width, d.width),
  };
}

export const toStored = (blocks: Block[]): StoredBlock[] => blocks.map(({ id: _id, ...rest }) => rest);

import Form from 'react-bootstrap/Form';
import { Field } from '@/components/form/field';
import { safeUrl } from './html';
import { blockLabel, LIMITS, type Align, type Block } from './model';

const ALIGNS: { value: Align; label: string }[] = [
  { value: 'left', label: 'Left' },
  { value: 'center', label: 'Center' },
  { value: 'right', label: 'Right' },
];

/** The properties panel of the selected block: the fields its type has. */
export function BlockProperties({
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
      <Field
        id={id(field)}
        label={label}
        className="mb-2"
        type="url"
        value={raw}
        placeholder="https://"
        onChange={(e) => onPatch({ [field]: e.target.value })}
        invalid={invalid}
        error={allowMailto ? 'Only http(s) and mailto links are kept.' : 'Only http(s) images are kept.'}
      />
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

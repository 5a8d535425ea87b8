import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { Mailing, SenderOption, VariantInput } from '@/api/gen/model';

const MAX_VARIANTS = 25;

/** The saved variants B, C … of a mailing as editor inputs. */
export function variantsOf(mailing: Mailing | null): VariantInput[] {
  return (
    mailing?.variants.map((v) => ({
      subjectLine: v.subjectLine ?? null,
      senderId: v.senderId ?? null,
      previewText: v.previewText ?? null,
      bodyHtml: v.bodyHtml ?? null,
    })) ?? []
  );
}

const letter = (i: number) => String.fromCharCode(66 + i);

/**
 * Variants B, C … of a mailing: each may change the subject, sender, preview text and body; an empty field keeps
 * variant A's. The audience is split among A and the variants at random, evenly.
 */
export function VariantsEditor({
  variants,
  onChange,
  senders,
}: {
  variants: VariantInput[];
  onChange: (next: VariantInput[]) => void;
  senders: SenderOption[];
}) {
  const set = (i: number, patch: Partial<VariantInput>) =>
    onChange(variants.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <section className="mb-3" aria-label="Variants">
      <div className="d-flex align-items-center gap-2 mb-2">
        <h2 className="h6 mb-0">Variants</h2>
        <Button
          size="sm"
          variant="outline-primary"
          disabled={variants.length >= MAX_VARIANTS}
          onClick={() => onChange([...variants, { subjectLine: null, senderId: null, previewText: null, bodyHtml: null }])}
        >
          Add variant
        </Button>
      </div>
      {variants.length === 0 ? (
        <p className="text-body-secondary small mb-0">One version for everyone (variant A).</p>
      ) : (
        <p className="text-body-secondary small">
          The audience is split evenly at random among A to {letter(variants.length - 1)}. Empty fields keep A&apos;s.
        </p>
      )}
      {variants.map((v, i) => (
        <Card key={i} className="mb-2">
          <Card.Body>
            <div className="d-flex justify-content-between align-items-center mb-2">
              <h3 className="h6 mb-0">Variant {letter(i)}</h3>
              <Button size="sm" variant="outline-danger" onClick={() => onChange(variants.filter((_, j) => j !== i))}>
                Remove variant {letter(i)}
              </Button>
            </div>
            <Form.Group className="mb-2" controlId={`crm-variant-${i}-subject`}>
              <Form.Label>Variant {letter(i)} subject</Form.Label>
              <Form.Control
                value={v.subjectLine ?? ''}
                maxLength={300}
                onChange={(e) => set(i, { subjectLine: e.target.value || null })}
              />
            </Form.Group>
            <Form.Group className="mb-2" controlId={`crm-variant-${i}-sender`}>
              <Form.Label>Variant {letter(i)} sender</Form.Label>
              <Form.Select
                value={v.senderId != null ? String(v.senderId) : ''}
                onChange={(e) => set(i, { senderId: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">Same as A</option>
                {senders.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.label}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group className="mb-2" controlId={`crm-variant-${i}-preview`}>
              <Form.Label>Variant {letter(i)} preview text</Form.Label>
              <Form.Control
                value={v.previewText ?? ''}
                maxLength={300}
                onChange={(e) => set(i, { previewText: e.target.value || null })}
              />
            </Form.Group>
            <Form.Group controlId={`crm-variant-${i}-body`}>
              <Form.Label>Variant {letter(i)} body (HTML)</Form.Label>
              <Form.Control
                as="textarea"
                rows={3}
                value={v.bodyHtml ?? ''}
                onChange={(e) => set(i, { bodyHtml: e.target.value || null })}
              />
            </Form.Group>
          </Card.Body>
        </Card>
      ))}
    </section>
  );
}

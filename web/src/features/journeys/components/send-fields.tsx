import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import { Field } from '@/components/form/field';
import { MAX_SEND_VARIANTS, MERGE_TAGS, variantLetter } from '../definition';
import type { SendStep, SendVariant } from '../types';
import { Picker } from './pickers';

export interface SendFieldsProps {
  step: SendStep;
  /** The id prefix of the step's fields. */
  f: string;
  onUpdate: (patch: Partial<SendStep>) => void;
}

/**
 * A send step's e-mail: a template or a body written here, the subject with its merge tags, and variants B, C …
 * that recipients are dealt to evenly, each with a subject or body of its own.
 */
export function SendFields({ step, f, onUpdate }: SendFieldsProps) {
  const ownBody = step.body_html !== undefined;
  const variants = step.variants ?? [];
  const setVariant = (index: number, patch: SendVariant) =>
    onUpdate({ variants: variants.map((v, i) => (i === index ? clean({ ...v, ...patch }) : v)) });
  return (
    <>
      <Field
        id={`${f}-body-source`}
        label="Body"
        select
        value={ownBody ? 'own' : 'template'}
        onChange={(e) =>
          onUpdate(
            e.target.value === 'own'
              ? { template_id: null, body_html: '' }
              : { template_id: 0, body_html: undefined },
          )
        }
      >
        <option value="template">From a template</option>
        <option value="own">Written here</option>
      </Field>
      {ownBody ? (
        <Field
          id={`${f}-body`}
          label="Body (HTML)"
          as="textarea"
          rows={6}
          value={step.body_html ?? ''}
          onChange={(e) => onUpdate({ body_html: e.target.value })}
          invalid={!step.body_html?.trim()}
          error="Write the e-mail's body."
          hint={<Form.Text>Merge tags work here as in mailings, e.g. {'{{First.Name|friend}}'}.</Form.Text>}
        />
      ) : (
        <Picker
          id={`${f}-template`}
          label="Template"
          kind="templates"
          value={step.template_id ?? 0}
          onChange={(id) => onUpdate({ template_id: id })}
        />
      )}
      <Field
        id={`${f}-subject`}
        label="Subject"
        value={step.subject}
        onChange={(e) => onUpdate({ subject: e.target.value })}
        invalid={!step.subject.trim()}
        error="Enter a subject."
        className="mb-1"
      />
      <ButtonGroup size="sm" className="mb-3" aria-label="Merge tags">
        {MERGE_TAGS.map((tag) => (
          <Button key={tag} variant="outline-secondary" onClick={() => onUpdate({ subject: `${step.subject}{{${tag}}}` })}>
            {`Insert {{${tag}}}`}
          </Button>
        ))}
      </ButtonGroup>
      {variants.map((v, i) => {
        const letter = variantLetter(i);
        const empty = !v.subject?.trim() && !v.body_html?.trim();
        return (
          <fieldset key={letter} className="border rounded p-2 mb-3" aria-label={`Variant ${letter}`}>
            <legend className="small fw-semibold float-none w-auto px-1 mb-0">Variant {letter}</legend>
            <Field
              id={`${f}-variant-${letter}-subject`}
              label="Subject (empty: the step's)"
              value={v.subject ?? ''}
              onChange={(e) => setVariant(i, { subject: e.target.value })}
              invalid={empty}
              error="Give the variant its own subject or body."
              className="mb-2"
            />
            <Field
              id={`${f}-variant-${letter}-body`}
              label="Body (empty: the step's)"
              as="textarea"
              rows={3}
              value={v.body_html ?? ''}
              onChange={(e) => setVariant(i, { body_html: e.target.value })}
              className="mb-2"
            />
            <Button
              variant="outline-danger"
              size="sm"
              onClick={() => onUpdate({ variants: variants.filter((_, k) => k !== i) })}
            >
              Remove variant {letter}
            </Button>
          </fieldset>
        );
      })}
      {variants.length < MAX_SEND_VARIANTS && (
        <Button
          variant="outline-secondary"
          size="sm"
          className="mb-3 d-block"
          onClick={() => onUpdate({ variants: [...variants, {}] })}
        >
          Add variant {variantLetter(variants.length)}
        </Button>
      )}
      <Field
        id={`${f}-on-cap`}
        label="Over the frequency cap or in quiet hours"
        select
        value={step.on_cap}
        onChange={(e) => onUpdate({ on_cap: e.target.value as 'wait' | 'skip' })}
      >
        <option value="wait">Wait for the next allowed time</option>
        <option value="skip">Skip this e-mail</option>
      </Field>
    </>
  );
}

/** A variant without empty fields: an empty subject or body is the step's, which the server reads as absent. */
function clean(v: SendVariant): SendVariant {
  return {
    ...(v.subject !== undefined && v.subject !== '' ? { subject: v.subject } : {}),
    ...(v.body_html !== undefined && v.body_html !== '' ? { body_html: v.body_html } : {}),
  };
}

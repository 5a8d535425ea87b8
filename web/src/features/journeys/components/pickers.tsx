import { useMemo } from 'react';
import {
  useListCrmForms,
  useListCrmLists,
  useListMailingTemplates,
  useListOriginCodes,
  useListSegmentNames,
} from '@/api/gen';
import { Field } from '@/components/form/field';
import type { Names } from '../describe';

interface Option {
  id: number;
  name: string;
}

function useOptions() {
  const templates = useListMailingTemplates({ query: { meta: { errorMessage: 'Could not load templates' } } });
  const lists = useListCrmLists({ query: { meta: { errorMessage: 'Could not load lists' } } });
  const segments = useListSegmentNames({ query: { meta: { errorMessage: 'Could not load segments' } } });
  const forms = useListCrmForms({ query: { meta: { errorMessage: 'Could not load forms' } } });
  return useMemo(
    () => ({
      templates: (templates.data ?? []).map((t) => ({ id: t.id, name: t.name })),
      lists: (lists.data ?? []).map((l) => ({ id: l.id, name: l.name })),
      segments: (segments.data ?? []).map((s) => ({ id: s.id, name: s.label })),
      forms: (forms.data ?? []).map((f) => ({ id: f.id, name: f.name || 'Untitled' })),
    }),
    [templates.data, lists.data, segments.data, forms.data],
  );
}

/** The names of the client's templates, lists, segments and forms, for the flow's boxes. */
export function useNames(): Names {
  const options = useOptions();
  return useMemo(() => {
    const map = (items: Option[]) => new Map(items.map((i) => [i.id, i.name]));
    return {
      templates: map(options.templates),
      lists: map(options.lists),
      segments: map(options.segments),
      forms: map(options.forms),
    };
  }, [options]);
}

type PickerKind = 'templates' | 'lists' | 'segments' | 'forms';

const PLACEHOLDER: Record<PickerKind, string> = {
  templates: 'Choose a template…',
  lists: 'Choose a list…',
  segments: 'Choose a segment…',
  forms: 'Choose a form…',
};

export interface PickerProps {
  id: string;
  label: string;
  kind: PickerKind;
  /** The chosen id; 0 when none is chosen yet. */
  value: number;
  onChange: (id: number) => void;
  /** Marks the select invalid while nothing is chosen (default on: a step or trigger needs its choice). */
  flagMissing?: boolean;
}

/** A select of the client's templates, lists, segments or forms (the step or trigger stores the id). */
export function Picker({ id, label, kind, value, onChange, flagMissing = true }: PickerProps) {
  const options = useOptions()[kind];
  return (
    <Field
      id={id}
      label={label}
      select
      value={value > 0 ? String(value) : ''}
      onChange={(e) => onChange(Number(e.target.value) || 0)}
      invalid={flagMissing && !(value > 0)}
      error={PLACEHOLDER[kind].replace('…', '.')}
    >
      <option value="">{PLACEHOLDER[kind]}</option>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </Field>
  );
}

/** An origin code typed or chosen from the client's codes. */
export function OriginCodeInput({ id, value, onChange }: { id: string; value: string; onChange: (code: string) => void }) {
  const codes = useListOriginCodes({ query: { meta: { errorMessage: 'Could not load origin codes' } } });
  return (
    <>
      <Field
        id={id}
        label="Origin code"
        value={value}
        list={`${id}-codes`}
        onChange={(e) => onChange(e.target.value)}
        invalid={!value.trim()}
        error="Type or choose an origin code."
      />
      <datalist id={`${id}-codes`}>
        {(codes.data ?? []).map((c) => (
          <option key={c.id} value={c.name}>
            {c.label}
          </option>
        ))}
      </datalist>
    </>
  );
}

import { useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { FormStyle } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { DEFAULT_BACKGROUND, DEFAULT_PRIMARY } from './styled-form';

const HEX = /^#[0-9a-fA-F]{6}$/;
/** The server takes at most 200,000 characters of data URL: about 150 kB of image. */
export const MAX_LOGO_BYTES = 150_000;
const LOGO_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** Empty means the default; otherwise `#rrggbb`. */
export const colourValid = (value: string | null | undefined): boolean => !value?.trim() || HEX.test(value.trim());

/** Empty, an https address or an uploaded image. */
export const logoValid = (value: string | null | undefined): boolean => {
  const v = value?.trim() ?? '';
  return v === '' || /^https:\/\/\S+$/i.test(v) || /^data:image\/(png|jpeg|gif|webp);base64,/.test(v);
};

export const styleValid = (style: FormStyle): boolean =>
  colourValid(style.primaryColor) && colourValid(style.backgroundColor) && logoValid(style.logoUrl);

function ColourField({
  id,
  label,
  value,
  fallback,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  fallback: string;
  onChange: (value: string) => void;
}) {
  const valid = colourValid(value);
  return (
    <Field
      id={id}
      label={label}
      className="mb-3 col-sm-6"
      before={
        <Form.Control
          type="color"
          aria-label={`Pick ${label.toLowerCase()}`}
          id={`${id}-picker`}
          className="form-control-color flex-grow-0"
          value={valid && value ? value : fallback}
          onChange={(e) => onChange(e.target.value)}
        />
      }
      value={value}
      placeholder={fallback}
      maxLength={7}
      invalid={!valid}
      error={!valid && 'Enter a colour like #1a73e8, or leave it empty.'}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The Style tab's fields: colours, logo (address or upload) and button text. Empty fields use the default. */
export function FormStyleFields({ style, onChange }: { style: FormStyle; onChange: (style: FormStyle) => void }) {
  const [uploadError, setUploadError] = useState<string | null>(null);
  const set = (patch: Partial<FormStyle>) => onChange({ ...style, ...patch });
  const logo = style.logoUrl ?? '';
  const uploaded = logo.startsWith('data:');

  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!LOGO_TYPES.split(',').includes(file.type)) {
      setUploadError('The logo must be a PNG, JPEG, GIF or WebP image.');
      return;
    }
    if (file.size > MAX_LOGO_BYTES) {
      setUploadError('The logo image is too large (at most 150 kB).');
      return;
    }
    setUploadError(null);
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') set({ logoUrl: reader.result });
    };
    reader.readAsDataURL(file);
  };

  return (
    <div className="row">
      <ColourField
        id="crm-form-primary-color"
        label="Primary colour"
        value={style.primaryColor ?? ''}
        fallback={DEFAULT_PRIMARY}
        onChange={(primaryColor) => set({ primaryColor })}
      />
      <ColourField
        id="crm-form-background-color"
        label="Background colour"
        value={style.backgroundColor ?? ''}
        fallback={DEFAULT_BACKGROUND}
        onChange={(backgroundColor) => set({ backgroundColor })}
      />
      <Field
        id="crm-form-logo-url"
        label="Logo URL"
        type="url"
        value={uploaded ? '' : logo}
        placeholder={uploaded ? 'Uploaded image' : 'https://…'}
        maxLength={2000}
        invalid={!uploaded && !logoValid(logo)}
        error="The logo URL must start with https://"
        onChange={(e) => set({ logoUrl: e.target.value })}
        after={
          logo ? (
            <Button variant="outline-secondary" onClick={() => set({ logoUrl: null })}>
              Remove logo
            </Button>
          ) : null
        }
      />
      <Field
        id="crm-form-logo-file"
        label="Or upload a logo"
        type="file"
        accept={LOGO_TYPES}
        onChange={upload}
        invalid={uploadError !== null}
        error={uploadError}
        hint={<Form.Text muted>PNG, JPEG, GIF or WebP, at most 150 kB.</Form.Text>}
      />
      <Field
        id="crm-form-button-text"
        label="Button text"
        value={style.buttonText ?? ''}
        placeholder="As in the form body"
        maxLength={100}
        onChange={(e) => set({ buttonText: e.target.value })}
      />
    </div>
  );
}

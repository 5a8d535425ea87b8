import type { ChangeEvent, ComponentProps, FocusEvent, InputHTMLAttributes, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

type ControlProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'size' | 'children' | 'onChange' | 'onBlur' | 'aria-describedby' | 'value'
> & {
  value?: string | number;
  /** Typed for all three elements at once, so a handler written for any one of them fits. */
  onChange?: (event: ChangeEvent<HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement>) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement>) => void;
  /** A textarea instead of an input. */
  as?: 'textarea';
  rows?: number;
};
type SelectProps = ComponentProps<typeof Form.Select>;

interface FieldBase {
  /** The control's id (the label points at it); the error message is `${id}-error`. */
  id: string;
  label: ReactNode;
  /** Marks the control invalid and shows `error` under it. */
  invalid?: boolean;
  /** The message shown while the field is invalid. */
  error?: ReactNode;
  /** Help under the control (after the message). */
  hint?: ReactNode;
  /** Classes of the group around label, control and message (default `mb-3`). */
  className?: string;
  labelClassName?: string;
}

export type FieldProps = FieldBase &
  ControlProps & {
    /** A select (its options as children) instead of an input. */
    select?: boolean;
    children?: ReactNode;
  };

/**
 * A labelled control with its error message: the one markup every form uses for a field that can be invalid. The
 * message is linked to the control (aria-describedby) while it shows.
 */
export function Field(props: FieldProps) {
  const { id, label, invalid = false, error, hint, className = 'mb-3', labelClassName, select, children, ...control } =
    props;
  const errorId = `${id}-error`;
  const described = invalid && error ? errorId : undefined;
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label className={labelClassName}>{label}</Form.Label>
      {select ? (
        // The input's props suit a select too (value, onChange, onBlur, required, disabled).
        <Form.Select {...(control as SelectProps)} isInvalid={invalid} aria-describedby={described}>
          {children}
        </Form.Select>
      ) : (
        <Form.Control {...control} isInvalid={invalid} aria-describedby={described} />
      )}
      {error && (
        <Form.Control.Feedback type="invalid" id={errorId}>
          {error}
        </Form.Control.Feedback>
      )}
      {hint}
    </Form.Group>
  );
}

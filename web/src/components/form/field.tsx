import type { ChangeEvent, ComponentProps, FocusEvent, InputHTMLAttributes, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

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
  /** Help under the control (after the message), not linked to it. */
  hint?: ReactNode;
  /**
   * The rule the value must meet, linked to the control and shown under it while the field is valid; while invalid
   * the error takes its place (and its id), so the control is always described by the one message that shows.
   */
  rule?: ReactNode;
  /** The id of the message (the error, or the rule in its place); default `${id}-error`. */
  messageId?: string;
  /** Add-ons before and after the control (a colour picker, a button), which then sit in one input group. */
  before?: ReactNode;
  after?: ReactNode;
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
  const {
    id,
    label,
    invalid = false,
    error,
    hint,
    rule,
    messageId = `${id}-error`,
    before,
    after,
    className = 'mb-3',
    labelClassName,
    select,
    children,
    ...control
  } = props;
  const errorShown = invalid && Boolean(error);
  const described = errorShown || (rule && !invalid) ? messageId : undefined;
  const input = select ? (
    // The input's props suit a select too (value, onChange, onBlur, required, disabled).
    <Form.Select {...(control as SelectProps)} isInvalid={invalid} aria-describedby={described}>
      {children}
    </Form.Select>
  ) : (
    <Form.Control {...control} isInvalid={invalid} aria-describedby={described} />
  );
  // Without a rule the error stays in the page while valid: Bootstrap shows it only next to an invalid control.
  const message =
    error && (!rule || errorShown) ? (
      <Form.Control.Feedback type="invalid" id={messageId}>
        {error}
      </Form.Control.Feedback>
    ) : rule && !invalid ? (
      <Form.Text id={messageId}>{rule}</Form.Text>
    ) : null;
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label className={labelClassName}>{label}</Form.Label>
      {before !== undefined || after !== undefined ? (
        // Bootstrap rounds the group's corners by its last element: the message counts only when there is one.
        <InputGroup hasValidation={message !== null}>
          {before}
          {input}
          {after}
          {message}
        </InputGroup>
      ) : (
        <>
          {input}
          {message}
        </>
      )}
      {hint}
    </Form.Group>
  );
}

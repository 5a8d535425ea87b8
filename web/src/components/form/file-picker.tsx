import { useEffect, useId, useRef, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

export interface FilePickerProps {
  /** The label of the file input. */
  label: string;
  /** The file types the browser offers, e.g. ".csv,.xls,.xlsx". */
  accept: string;
  /** The chosen file (null when none). */
  value: File | null;
  onChange: (file: File | null) => void;
  /** A note under the input, e.g. the columns the file needs. */
  hint?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/** A labelled single-file input limited to `accept`; clearing `value` clears the input. */
export function FilePicker({ label, accept, value, onChange, hint, disabled, className = 'mb-3' }: FilePickerProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const inputRef = useRef<HTMLInputElement>(null);
  // A file input cannot be set, only cleared: follow the parent when it drops the file.
  useEffect(() => {
    if (value === null && inputRef.current) inputRef.current.value = '';
  }, [value]);
  return (
    <Form.Group className={className} controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="file"
        accept={accept}
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        ref={inputRef}
        onChange={(e) => {
          const input = e.target as HTMLInputElement;
          onChange(input.files?.[0] ?? null);
        }}
      />
      {hint ? (
        <Form.Text id={hintId} muted>
          {hint}
        </Form.Text>
      ) : null}
    </Form.Group>
  );
}

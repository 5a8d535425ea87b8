import { type FormEvent, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import {
  ColumnMapping,
  mappedColumns,
  type ColumnMappingValue,
  type MappingField,
  validateMapping,
} from '@/components/form/column-mapping';
import { Field } from '@/components/form/field';
import { ImportDialogFooter } from '@/components/form/import-dialog-footer';
import { useMappedFile } from '@/components/form/use-mapped-file';
import { MAPPABLE_EXTENSIONS } from '@/lib/header-row';

/** A field a file column can feed; `required` fields must each get a column. */
export interface ImportField extends MappingField {
  required: boolean;
}

export interface MappedImportDialogProps {
  show: boolean;
  onClose: () => void;
  /** The dialog's title, e.g. "Import External Mailings". */
  title: string;
  /** The fields a column can be mapped to; undefined while they load. */
  fields: readonly ImportField[] | undefined;
  fieldsError?: boolean;
  /** A note under the file input: what the file should hold. */
  hint?: ReactNode;
  /** Controls of the import's own (a platform, a list), shown above the file. */
  children?: ReactNode;
  /** True while the import call runs. */
  pending: boolean;
  /** Starts the import with the chosen file and its mapped columns (file header → field id). */
  onImport: (file: File, mapping: ColumnMappingValue) => void;
}

/**
 * A column-mapped file import: choose a .csv/.txt file, its header row is read in the browser and each column is
 * mapped to a field (columns whose header names a field, or one of its synonyms, are pre-mapped); Import is
 * enabled once every required field has a column and no field has two.
 */
export function MappedImportDialog({
  show,
  onClose,
  title,
  fields,
  fieldsError = false,
  hint,
  children,
  pending,
  onImport,
}: MappedImportDialogProps) {
  const { file, columns, mapping, setMapping, fileError, reset, takeMapped } = useMappedFile();
  const required = (fields ?? []).filter((f) => f.required).map((f) => f.id);

  function close() {
    reset();
    onClose();
  }

  const chooseFile = (chosen: File | undefined) => takeMapped(chosen, fields ?? []);

  const errors = fields ? validateMapping(mapping, fields, required) : [];
  const canSubmit = file !== null && fields !== undefined && errors.length === 0 && !pending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (file && canSubmit) onImport(file, mappedColumns(mapping));
  };

  return (
    <Modal show={show} onHide={close} centered size="lg" aria-labelledby="mapped-import-title">
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="mapped-import-title">{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {children}
          <Field
            id="mapped-import-file"
            label="File"
            type="file"
            accept={MAPPABLE_EXTENSIONS.join(',')}
            onChange={(e) => void chooseFile(e.target.files?.[0])}
            invalid={fileError !== null}
            error={fileError}
            disabled={pending || fields === undefined}
            hint={hint && <Form.Text as="p">{hint}</Form.Text>}
          />
          {fieldsError && <Alert variant="danger">Could not load the import fields.</Alert>}
          {file && fields && (
            <Form.Group className="mb-3">
              <Form.Label as="div">Column mapping</Form.Label>
              <ColumnMapping
                columns={columns}
                fields={fields}
                value={mapping}
                onChange={setMapping}
                requiredFieldId={required}
                disabled={pending}
              />
            </Form.Group>
          )}
        </Modal.Body>
        <ImportDialogFooter onCancel={close} canSubmit={canSubmit} pending={pending} />
      </Form>
    </Modal>
  );
}

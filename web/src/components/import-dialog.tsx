import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { Job } from '@/api/gen/model';
import { ColumnMapping, mappedColumns, validateMapping, type MappingField } from '@/components/form/column-mapping';
import { Field } from '@/components/form/field';
import { ImportDialogFooter } from '@/components/form/import-dialog-footer';
import { useMappedFile } from '@/components/form/use-mapped-file';
import { MAPPABLE_EXTENSIONS } from '@/lib/header-row';
import { trackJob } from '@/lib/job-tracker';
import { notifySuccess } from '@/lib/notifications';

/** A source the server knows by its export's own column names, or (`mapped`) one whose columns the user maps. */
export interface ImportPlatform {
  id: string;
  label: string;
  hint: string;
  /** The file types the browser offers for a known export (a mapped file is always .csv or .txt). */
  accept?: string;
  mapped?: boolean;
}

/** What the upload operation takes: the file, the platform id, and for a mapped file the mapping JSON. */
export interface ImportUpload {
  file: File;
  platform: string;
  mapping?: string;
}

export interface ImportDialogProps {
  show: boolean;
  onClose: () => void;
  /** The dialog title, e.g. "Import Ad Spend"; also names its element ids. */
  title: string;
  idPrefix: string;
  /** The choices in order; the first is preselected. */
  platforms: readonly ImportPlatform[];
  /** The fields a mapped file's columns go to, from the area's `…/import/fields` operation. */
  fields: { queryKey: readonly unknown[]; load: (signal: AbortSignal) => Promise<MappingField[]> };
  /** Field ids a mapped file must map; the first is the one the mapping table itself marks as needed. */
  requiredFields: readonly string[];
  /** The area's upload operation; it answers the queued job, which the job banner then follows. */
  upload: (data: ImportUpload) => Promise<Job>;
}

/**
 * Imports a file as a job: the platform it comes from, the file, and for another platform's file a column
 * mapping read from its header row in the browser. The job is tracked in the job banner and the dialog closes.
 */
export function ImportDialog(props: ImportDialogProps) {
  const { show, onClose, title, idPrefix, platforms, fields, requiredFields, upload } = props;
  const [platformId, setPlatformId] = useState(platforms[0].id);
  const { file, columns, mapping, setMapping, fileError, reset, takeAsIs, takeMapped } = useMappedFile();
  const platform = platforms.find((p) => p.id === platformId) ?? platforms[0];
  const mapped = platform.mapped === true;
  const fieldList = useQuery({
    queryKey: fields.queryKey,
    queryFn: ({ signal }) => fields.load(signal),
    enabled: show && mapped,
    meta: { errorMessage: 'Could not load the import fields' },
  });
  const importFile = useMutation({
    // Only the data: TanStack passes a context as the second argument, which is not the operation's request options.
    mutationFn: (data: ImportUpload) => upload(data),
    meta: { errorMessage: 'Could not start the import' },
    onSuccess: (job) => {
      notifySuccess('Import started');
      trackJob(job);
      close();
    },
  });

  function close() {
    reset();
    setPlatformId(platforms[0].id);
    onClose();
  }

  const chooseFile = (chosen: File | undefined) =>
    mapped ? takeMapped(chosen, fieldList.data ?? []) : Promise.resolve(takeAsIs(chosen));

  const errors = mapped ? validateMapping(mapping, fieldList.data ?? [], requiredFields) : [];
  const canSubmit = file !== null && !importFile.isPending && (!mapped || (fieldList.isSuccess && errors.length === 0));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !canSubmit) return;
    importFile.mutate({
      file,
      platform: platform.id,
      ...(mapped ? { mapping: JSON.stringify(mappedColumns(mapping)) } : {}),
    });
  };

  // The mapping table shows the anchor field's own error; the others are listed under it.
  const anchorLabel = fieldList.data?.find((f) => f.id === requiredFields[0])?.label ?? '\u0000';

  return (
    <Modal show={show} onHide={close} centered size="lg" aria-labelledby={`${idPrefix}-title`}>
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id={`${idPrefix}-title`}>{title}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">Platform</legend>
            {platforms.map((p) => (
              <Form.Check
                inline
                key={p.id}
                type="radio"
                id={`${idPrefix}-${p.id}`}
                name={`${idPrefix}-platform`}
                label={p.label}
                checked={platform.id === p.id}
                disabled={importFile.isPending}
                onChange={() => {
                  reset();
                  setPlatformId(p.id);
                }}
              />
            ))}
            <Form.Text as="p">{platform.hint}</Form.Text>
          </fieldset>
          <Field
            // A new platform starts from an empty picker.
            key={platform.id}
            id={`${idPrefix}-file`}
            label="File"
            type="file"
            accept={mapped ? MAPPABLE_EXTENSIONS.join(',') : platform.accept}
            onChange={(e) => void chooseFile(e.target.files?.[0])}
            invalid={fileError !== null}
            error={fileError}
            disabled={importFile.isPending}
          />
          {mapped && fieldList.isError && <Alert variant="danger">Could not load the import fields.</Alert>}
          {mapped && file && fieldList.isSuccess && (
            <Form.Group className="mb-3">
              <Form.Label as="div">Column mapping</Form.Label>
              <ColumnMapping
                columns={columns}
                fields={fieldList.data}
                value={mapping}
                onChange={setMapping}
                requiredFieldId={requiredFields[0]}
                disabled={importFile.isPending}
              />
              {errors
                .filter((e) => !e.includes(anchorLabel))
                .map((error) => (
                  <div key={error} className="text-danger small">
                    {error}
                  </div>
                ))}
            </Form.Group>
          )}
        </Modal.Body>
        <ImportDialogFooter onCancel={close} canSubmit={canSubmit} pending={importFile.isPending} />
      </Form>
    </Modal>
  );
}

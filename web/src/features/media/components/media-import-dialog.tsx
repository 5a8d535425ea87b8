import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useImportMedia, useListMediaImportFields } from '@/api/gen';
import {
  ColumnMapping,
  guessMapping,
  mappedColumns,
  validateMapping,
  type ColumnMappingValue,
} from '@/components/form/column-mapping';
import { trackJob } from '@/lib/job-tracker';
import { notifySuccess } from '@/lib/notifications';
import { isMappableFile, MAPPABLE_EXTENSIONS, readHeaderRow } from '@/lib/header-row';

type Platform = 'meta' | 'google' | 'other';

const PLATFORMS: { id: Platform; label: string; hint: string }[] = [
  {
    id: 'meta',
    label: 'Meta Ads Manager',
    hint: 'An ad-level export broken down by day (.csv, .xls or .xlsx). Columns are found by name: Day, Campaign name, Ad set name, Ad name, Amount spent; Ad ID, Impressions, Link clicks, Results and URL parameters when present.',
  },
  {
    id: 'google',
    label: 'Google Ads',
    hint: 'An ad report segmented by day (.csv). Columns are found by name: Day, Campaign, Ad group, Ad ID, Cost, Impr., Clicks, Conversions and Final URL.',
  },
  { id: 'other', label: 'Other', hint: 'Any other platform’s .csv or .txt file: map its columns below.' },
];

const REQUIRED_FIELDS = ['day', 'campaign', 'ad', 'spend'];

/** The mapping's problems for an ads file: every required field mapped, none twice. */
export function mediaMappingErrors(mapping: ColumnMappingValue, fields: readonly { id: string; label: string }[]): string[] {
  const errors = new Set<string>();
  for (const required of REQUIRED_FIELDS) {
    for (const error of validateMapping(mapping, fields, required)) errors.add(error);
  }
  return [...errors];
}

/** Imports ad days from a Meta or Google export, or a mapped file; the import runs as a job. */
export function MediaImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const [platform, setPlatform] = useState<Platform>('meta');
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<ColumnMappingValue>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const fields = useListMediaImportFields({
    query: { enabled: show && platform === 'other', meta: { errorMessage: 'Could not load the import fields' } },
  });
  const importMedia = useImportMedia({
    mutation: {
      meta: { errorMessage: 'Could not start the import' },
      onSuccess: (job) => {
        notifySuccess('Import started');
        trackJob(job);
        close();
      },
    },
  });

  function reset() {
    setFile(null);
    setColumns([]);
    setMapping({});
    setFileError(null);
  }

  function close() {
    reset();
    setPlatform('meta');
    onClose();
  }

  const chooseFile = async (chosen: File | undefined) => {
    reset();
    if (!chosen) return;
    if (platform !== 'other') {
      setFile(chosen);
      return;
    }
    if (!isMappableFile(chosen.name)) {
      setFileError('Only .csv and .txt files can be mapped; save an Excel file as CSV first.');
      return;
    }
    try {
      const header = await readHeaderRow(chosen);
      if (header.length === 0) {
        setFileError('The file has no header row.');
        return;
      }
      setFile(chosen);
      setColumns(header);
      setMapping(guessMapping(header, fields.data ?? []));
    } catch {
      setFileError('Could not read the file.');
    }
  };

  const mappingErrors = platform === 'other' ? mediaMappingErrors(mapping, fields.data ?? []) : [];
  const canSubmit =
    file !== null && !importMedia.isPending && (platform !== 'other' || (fields.isSuccess && mappingErrors.length === 0));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !canSubmit) return;
    importMedia.mutate({
      data: { file, platform, ...(platform === 'other' ? { mapping: JSON.stringify(mappedColumns(mapping)) } : {}) },
    });
  };

  const hint = PLATFORMS.find((p) => p.id === platform)?.hint;
  return (
    <Modal show={show} onHide={close} centered size="lg" aria-labelledby="media-import-title">
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="media-import-title">Import Ad Spend</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">Platform</legend>
            {PLATFORMS.map((p) => (
              <Form.Check
                inline
                key={p.id}
                type="radio"
                id={`media-import-${p.id}`}
                name="media-import-platform"
                label={p.label}
                checked={platform === p.id}
                disabled={importMedia.isPending}
                onChange={() => {
                  reset();
                  setPlatform(p.id);
                }}
              />
            ))}
            {hint && <Form.Text as="p">{hint}</Form.Text>}
          </fieldset>
          <Form.Group className="mb-3" controlId="media-import-file">
            <Form.Label>File</Form.Label>
            <Form.Control
              key={platform}
              type="file"
              accept={platform === 'other' ? MAPPABLE_EXTENSIONS.join(',') : '.csv,.xls,.xlsx'}
              onChange={(e) => void chooseFile((e.target as HTMLInputElement).files?.[0])}
              isInvalid={fileError !== null}
              disabled={importMedia.isPending}
            />
            {fileError && <Form.Control.Feedback type="invalid">{fileError}</Form.Control.Feedback>}
          </Form.Group>
          {platform === 'other' && fields.isError && <Alert variant="danger">Could not load the import fields.</Alert>}
          {platform === 'other' && file && fields.isSuccess && (
            <Form.Group className="mb-3">
              <Form.Label as="div">Column mapping</Form.Label>
              <ColumnMapping
                columns={columns}
                fields={fields.data}
                value={mapping}
                onChange={setMapping}
                requiredFieldId="day"
                disabled={importMedia.isPending}
              />
              {mappingErrors
                .filter((e) => !e.includes(fields.data.find((f) => f.id === 'day')?.label ?? '\u0000'))
                .map((error) => (
                  <div key={error} className="text-danger small">
                    {error}
                  </div>
                ))}
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={!canSubmit}>
            {importMedia.isPending ? <Spinner size="sm" className="me-1" aria-hidden /> : null}
            Import
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

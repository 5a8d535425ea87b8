import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useImportContributions, useListContributionImportFields } from '@/api/gen';
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

type Platform = 'actblue' | 'winred' | 'mapped';

const PLATFORMS: { id: Platform; label: string; hint: string }[] = [
  {
    id: 'actblue',
    label: 'ActBlue',
    hint: 'A contributions or refunds export (.csv). Columns are found by name; Lineitem ID, Date and Amount are needed.',
  },
  {
    id: 'winred',
    label: 'WinRed',
    hint: 'A WinRed export (.csv). Refunds and chargebacks are its negative rows.',
  },
  {
    id: 'mapped',
    label: 'Other',
    hint: 'Any other platform’s .csv or .txt file: map its columns below.',
  },
];

/** The fields every mapped file needs. */
const REQUIRED_FIELDS = ['line_item_id', 'date', 'amount'];

/** The mapping's problems for a contributions file: every required field mapped, none twice. */
export function contributionMappingErrors(
  mapping: ColumnMappingValue,
  fields: readonly { id: string; label: string }[],
): string[] {
  const errors = new Set<string>();
  for (const required of REQUIRED_FIELDS) {
    for (const error of validateMapping(mapping, fields, required)) errors.add(error);
  }
  return [...errors];
}

/**
 * Imports contributions: the platform (ActBlue, WinRed, or another platform's file with a column mapping) and the
 * file; the import runs as a job shown in the job banner. Opened from the Contributions page.
 */
export function ContributionsImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const [platform, setPlatform] = useState<Platform>('actblue');
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<ColumnMappingValue>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const fields = useListContributionImportFields({
    query: { enabled: show && platform === 'mapped', meta: { errorMessage: 'Could not load the import fields' } },
  });
  const importContributions = useImportContributions({
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
    setPlatform('actblue');
    onClose();
  }

  const chooseFile = async (chosen: File | undefined) => {
    reset();
    if (!chosen) return;
    if (platform !== 'mapped') {
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

  const mappingErrors = platform === 'mapped' ? contributionMappingErrors(mapping, fields.data ?? []) : [];
  const canSubmit =
    file !== null &&
    !importContributions.isPending &&
    (platform !== 'mapped' || (fields.isSuccess && mappingErrors.length === 0));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !canSubmit) return;
    importContributions.mutate({
      data: {
        file,
        platform,
        ...(platform === 'mapped' ? { mapping: JSON.stringify(mappedColumns(mapping)) } : {}),
      },
    });
  };

  const hint = PLATFORMS.find((p) => p.id === platform)?.hint;

  return (
    <Modal show={show} onHide={close} centered size="lg" aria-labelledby="contributions-import-title">
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="contributions-import-title">Import Contributions</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <fieldset className="mb-3">
            <legend className="form-label fs-6">Platform</legend>
            {PLATFORMS.map((p) => (
              <Form.Check
                inline
                key={p.id}
                type="radio"
                id={`contributions-import-${p.id}`}
                name="contributions-import-platform"
                label={p.label}
                checked={platform === p.id}
                disabled={importContributions.isPending}
                onChange={() => {
                  reset();
                  setPlatform(p.id);
                }}
              />
            ))}
            {hint && <Form.Text as="p">{hint}</Form.Text>}
          </fieldset>
          <Form.Group className="mb-3" controlId="contributions-import-file">
            <Form.Label>File</Form.Label>
            <Form.Control
              key={platform}
              type="file"
              accept={platform === 'mapped' ? MAPPABLE_EXTENSIONS.join(',') : '.csv'}
              onChange={(e) => void chooseFile((e.target as HTMLInputElement).files?.[0])}
              isInvalid={fileError !== null}
              disabled={importContributions.isPending}
            />
            {fileError && <Form.Control.Feedback type="invalid">{fileError}</Form.Control.Feedback>}
          </Form.Group>
          {platform === 'mapped' && fields.isError && (
            <Alert variant="danger">Could not load the import fields.</Alert>
          )}
          {platform === 'mapped' && file && fields.isSuccess && (
            <Form.Group className="mb-3">
              <Form.Label as="div">Column mapping</Form.Label>
              <ColumnMapping
                columns={columns}
                fields={fields.data}
                value={mapping}
                onChange={setMapping}
                requiredFieldId="line_item_id"
                disabled={importContributions.isPending}
              />
              {mappingErrors
                .filter((e) => !e.includes(fields.data.find((f) => f.id === 'line_item_id')?.label ?? '\u0000'))
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
            {importContributions.isPending ? <Spinner size="sm" className="me-1" aria-hidden /> : null}
            Import
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

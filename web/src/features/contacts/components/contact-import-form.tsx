import { useMemo, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useNavigate } from 'react-router';
import { useImportContacts, useListImportFields } from '@/api/gen';
import { columnsFor, DataTable } from '@/components/data-table';
import { Field } from '@/components/form/field';
import {
  ColumnMapping,
  guessMapping,
  mappedColumns,
  validateMapping,
  type ColumnMappingValue,
} from '@/components/form/column-mapping';
import { trackJob } from '@/lib/job-tracker';
import { notifySuccess } from '@/lib/notifications';
import { isMappableFile, MAPPABLE_EXTENSIONS, readHeaderRow, readPreview } from '@/lib/header-row';

interface ChosenFile {
  file: File;
  columns: string[];
}

const previewCol = columnsFor<string[]>();

/** The first rows of the file as the import will read them, each column headed by the field it goes to. */
function ImportPreview({
  preview,
  mapping,
  fields,
}: {
  preview: { columns: string[]; rows: string[][] };
  mapping: ColumnMappingValue;
  fields: readonly { id: string; label: string }[];
}) {
  // Columns by position (a file may repeat a header), made again only when the file or the mapping changes: a cell
  // is a component, and a new cell function remounts it.
  const columns = useMemo(() => {
    const target = (column: string) => fields.find((f) => f.id === mapping[column])?.label ?? 'Not imported';
    return preview.columns.map((column, i) =>
      previewCol.display({
        id: String(i),
        header: () => (
          <>
            {column}
            <div className="small fw-normal text-body-secondary">→ {target(column)}</div>
          </>
        ),
        cell: ({ row }) => row.original[i] ?? '',
      }),
    );
  }, [preview.columns, mapping, fields]);
  return (
    <section className="mb-3" aria-labelledby="contact-import-preview-title">
      <h2 id="contact-import-preview-title" className="form-label fs-6">
        Preview of the first rows
      </h2>
      <DataTable
        label="Preview of the first rows"
        columns={columns}
        data={preview.rows}
        striped={false}
        bordered
        className=""
      />
    </section>
  );
}

/**
 * Column-mapped contact import: choose a .csv/.txt file, map its columns (read in the browser) to contact fields,
 * optionally name an origin code, and start the import job.
 */
export function ContactImportForm() {
  const navigate = useNavigate();
  const fields = useListImportFields({ query: { meta: { errorMessage: 'Could not load the import fields' } } });
  const [chosen, setChosen] = useState<ChosenFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [mapping, setMapping] = useState<ColumnMappingValue>({});
  const [preview, setPreview] = useState<{ columns: string[]; rows: string[][] } | null>(null);
  const [originCode, setOriginCode] = useState('');
  // The first mapping is guessed from the columns' names once both the file and the import fields are in, in
  // whichever order they arrive (a file picked while the fields still load must not map every column to nothing).
  const [mappingGuessed, setMappingGuessed] = useState(true);
  // (Set while rendering, as React advises for state that follows other state: no extra effect pass.)
  if (!mappingGuessed && chosen && fields.data) {
    setMappingGuessed(true);
    setMapping(guessMapping(chosen.columns, fields.data));
  }

  const importContacts = useImportContacts({
    mutation: {
      onSuccess: async (job) => {
        notifySuccess('Import started');
        trackJob(job);
        await navigate('/contacts');
      },
    },
  });

  const chooseFile = async (file: File | undefined) => {
    setChosen(null);
    setPreview(null);
    setMapping({});
    setFileError(null);
    if (!file) return;
    if (!isMappableFile(file.name)) {
      setFileError('Only .csv and .txt files can be imported here; save an Excel file as CSV first.');
      return;
    }
    setReading(true);
    try {
      const columns = await readHeaderRow(file);
      if (columns.length === 0) {
        setFileError('The file has no header row.');
        return;
      }
      setChosen({ file, columns });
      setPreview(await readPreview(file));
      setMappingGuessed(false);
    } catch {
      setFileError('Could not read the file.');
    } finally {
      setReading(false);
    }
  };

  const errors = validateMapping(mapping, fields.data ?? []);
  const canSubmit = chosen !== null && fields.isSuccess && errors.length === 0 && !importContacts.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || !canSubmit) return;
    const code = originCode.trim();
    importContacts.mutate({
      data: {
        file: chosen.file,
        mapping: JSON.stringify(mappedColumns(mapping)),
        ...(code ? { originCode: code } : {}),
      },
    });
  };

  return (
    <Form onSubmit={submit} noValidate>
      <Field
        id="contact-import-file"
        label="File"
        type="file"
        accept={MAPPABLE_EXTENSIONS.join(',')}
        onChange={(e) => void chooseFile(e.target.files?.[0])}
        invalid={fileError !== null}
        error={fileError}
        disabled={importContacts.isPending || !fields.isSuccess}
        hint={
          <Form.Text>
            A .csv or .txt file whose first row names its columns (comma, semicolon or tab separated). Excel files
            cannot be mapped here; save them as CSV first.
          </Form.Text>
        }
      />

      {reading && <Spinner animation="border" size="sm" role="status" aria-label="Reading file" />}
      {fields.isError && <Alert variant="danger">Could not load the import fields.</Alert>}

      {chosen && fields.isSuccess && (
        <Form.Group className="mb-3">
          <Form.Label as="div">Column mapping</Form.Label>
          <ColumnMapping
            columns={chosen.columns}
            fields={fields.data}
            value={mapping}
            onChange={setMapping}
            disabled={importContacts.isPending}
          />
        </Form.Group>
      )}

      {chosen && preview && preview.rows.length > 0 && fields.isSuccess && (
        <ImportPreview preview={preview} mapping={mapping} fields={fields.data} />
      )}

      <Field
        id="contact-import-origin-code"
        label="Origin code"
        type="text"
        value={originCode}
        onChange={(e) => setOriginCode(e.target.value)}
        disabled={importContacts.isPending}
        hint={<Form.Text>Optional: the origin code of contacts created by this import.</Form.Text>}
      />

      <Button type="submit" disabled={!canSubmit}>
        {importContacts.isPending ? 'Importing…' : 'Import'}
      </Button>
    </Form>
  );
}

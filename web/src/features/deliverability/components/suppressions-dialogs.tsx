import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useAddSuppressions, useImportSuppressions } from '@/api/gen';
import type { SuppressionsAdded } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { FilePicker } from '@/components/form/file-picker';
import { formatCount } from '@/lib/format';
import { notifyCrmSuccess } from '@/lib/notifications';
import { splitAddresses } from '../utils';

interface DialogProps {
  show: boolean;
  onClose: () => void;
  /** After addresses were added: the page reloads its list. */
  onDone: () => unknown;
}

/** What an add or import did, with every row that was not taken named. */
export function AddedSummary({ result }: { result: SuppressionsAdded }) {
  return (
    <Alert variant={result.rejected.length > 0 ? 'warning' : 'success'} role="status">
      <p className="mb-1">
        {formatCount(result.added)} added, {formatCount(result.alreadySuppressed)} already suppressed
        {result.rejected.length > 0 ? `, ${formatCount(result.rejected.length)} not taken:` : '.'}
      </p>
      {result.rejected.length > 0 && (
        <ul className="mb-0 small">
          {result.rejected.slice(0, 50).map((r) => (
            <li key={`${r.row}-${r.value}`}>
              Row {r.row}: {r.value ? `"${r.value}"` : '(empty)'} — {r.reason}
            </li>
          ))}
          {result.rejected.length > 50 && <li>and {formatCount(result.rejected.length - 50)} more</li>}
        </ul>
      )}
    </Alert>
  );
}

/** Suppresses addresses typed or pasted, one a line (or separated by commas). */
export function AddSuppressionsDialog({ show, onClose, onDone }: DialogProps) {
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [result, setResult] = useState<SuppressionsAdded | null>(null);
  const add = useAddSuppressions({
    mutation: {
      meta: { errorMessage: 'Could not add the addresses' },
      onSuccess: async (added) => {
        setResult(added);
        if (added.added > 0) notifyCrmSuccess(`${formatCount(added.added)} suppressed`);
        await onDone();
      },
    },
  });
  const close = () => {
    setText('');
    setNote('');
    setInvalid(false);
    setResult(null);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const emails = splitAddresses(text);
    if (emails.length === 0) {
      setInvalid(true);
      return;
    }
    add.mutate({ data: { emails, ...(note.trim() ? { note: note.trim() } : {}) } });
  };
  return (
    <Modal show={show} onHide={close} centered aria-labelledby="add-suppressions-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id="add-suppressions-title">Add addresses</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Field
            id="suppression-addresses"
            label="Addresses"
            as="textarea"
            rows={5}
            value={text}
            invalid={invalid}
            error="Enter at least one address"
            hint="One a line, or separated by commas."
            onChange={(e) => {
              setText(e.target.value);
              setInvalid(false);
            }}
          />
          <Field id="suppression-note" label="Note (optional)" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
          {result && <AddedSummary result={result} />}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close}>
            Done
          </Button>
          <Button type="submit" disabled={add.isPending}>
            Suppress
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** Imports a suppression list: a CSV whose first column holds the addresses. */
export function ImportSuppressionsDialog({ show, onClose, onDone }: DialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<SuppressionsAdded | null>(null);
  const upload = useImportSuppressions({
    mutation: {
      meta: { errorMessage: 'Could not import the file' },
      onSuccess: async (added) => {
        setResult(added);
        setFile(null);
        if (added.added > 0) notifyCrmSuccess(`${formatCount(added.added)} suppressed`);
        await onDone();
      },
    },
  });
  const close = () => {
    setFile(null);
    setResult(null);
    onClose();
  };
  return (
    <Modal show={show} onHide={close} centered aria-labelledby="import-suppressions-title">
      <Form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (file) upload.mutate({ data: { file } });
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="import-suppressions-title">Import CSV</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <FilePicker
            label="Suppression file"
            accept=".csv,.txt"
            value={file}
            onChange={setFile}
            hint="The first column holds the addresses; a header row is fine. Rows that are not addresses are named."
          />
          {result && <AddedSummary result={result} />}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close}>
            Done
          </Button>
          <Button type="submit" disabled={!file || upload.isPending}>
            Import
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

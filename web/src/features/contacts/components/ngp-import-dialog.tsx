import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useImportNgpList } from '@/api/gen';
import type { ImportNgpListParams } from '@/api/gen/model';
import { FilePicker } from '@/components/form/file-picker';
import { trackJob } from '@/lib/job-tracker';
import { notifySuccess } from '@/lib/notifications';

type Actives = '90' | 'none';

const REQUIRED_COLUMNS = ['VANID', 'First', 'Last', 'Date Created', 'OriginCodeName', 'PreferredEmail'];

/**
 * The NGP saved-list import opened from the Contacts menu: a file (csv, xls, xlsx or tab-separated txt) with the
 * NGP columns and an Actives choice (contacts created in the last 90 days, or all). The import runs as a job.
 */
export function NgpImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [actives, setActives] = useState<Actives>('90');
  const importList = useImportNgpList({
    mutation: {
      meta: { errorMessage: 'Could not start the NGP import' },
      onSuccess: (job) => {
        notifySuccess('Import started');
        trackJob(job);
        close();
      },
    },
  });

  function close() {
    setFile(null);
    setActives('90');
    onClose();
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || importList.isPending) return;
    const params: ImportNgpListParams = actives === '90' ? { days: 90 } : {};
    importList.mutate({ data: { file }, params });
  };

  return (
    <Modal show={show} onHide={close} centered aria-labelledby="ngp-import-title">
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="ngp-import-title">NGP Saved List Import</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>
            The file must include the columns {REQUIRED_COLUMNS.join(', ')}. It may be a .csv, .xls, .xlsx or .txt
            file.
          </p>
          <FilePicker
            label="File"
            accept=".csv,.xls,.xlsx,.txt"
            value={file}
            onChange={setFile}
            disabled={importList.isPending}
          />
          <fieldset>
            <legend className="form-label fs-6">Actives</legend>
            <Form.Check
              inline
              type="radio"
              id="ngp-import-actives-90"
              name="ngp-import-actives"
              label="90 day"
              checked={actives === '90'}
              disabled={importList.isPending}
              onChange={() => setActives('90')}
            />
            <Form.Check
              inline
              type="radio"
              id="ngp-import-actives-none"
              name="ngp-import-actives"
              label="None"
              checked={actives === 'none'}
              disabled={importList.isPending}
              onChange={() => setActives('none')}
            />
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={!file || importList.isPending}>
            {importList.isPending ? <Spinner size="sm" className="me-1" aria-hidden /> : null}
            Import
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

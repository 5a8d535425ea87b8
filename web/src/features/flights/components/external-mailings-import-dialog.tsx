import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { useImportExternalMailings, useListExternalMailingImportFields } from '@/api/gen';
import { MappedImportDialog } from '@/components/mapped-import-dialog';
import { trackJob } from '@/lib/job-tracker';
import { notifySuccess } from '@/lib/notifications';

type Platform = 'esp' | 'lemlist';

const PLATFORMS: { id: Platform; label: string }[] = [
  { id: 'esp', label: 'Another e-mail platform' },
  { id: 'lemlist', label: 'lemlist' },
];

/** Imports the figures of sends made elsewhere (another platform's campaign report, a lemlist export) as a job. */
export function ExternalMailingsImportDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const [platform, setPlatform] = useState<Platform>('esp');
  const fields = useListExternalMailingImportFields({
    query: { enabled: show, meta: { errorMessage: 'Could not load the import fields' } },
  });
  const importMailings = useImportExternalMailings({
    mutation: {
      meta: { errorMessage: 'Could not start the import' },
      onSuccess: (job) => {
        notifySuccess('Import started');
        trackJob(job);
        setPlatform('esp');
        onClose();
      },
    },
  });
  return (
    <MappedImportDialog
      show={show}
      onClose={() => {
        setPlatform('esp');
        onClose();
      }}
      title="Import External Mailings"
      fields={fields.data}
      fieldsError={fields.isError}
      pending={importMailings.isPending}
      hint="One row per send: its name and send date, and any of recipients, delivered, bounces, opens, clicks, unsubscribes, gifts and revenue. A send imported again is replaced, not added."
      onImport={(file, mapping) =>
        importMailings.mutate({ data: { file, platform, mapping: JSON.stringify(mapping) } })
      }
    >
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Platform of rows that do not name one</legend>
        {PLATFORMS.map((p) => (
          <Form.Check
            inline
            key={p.id}
            type="radio"
            id={`external-import-${p.id}`}
            name="external-import-platform"
            label={p.label}
            checked={platform === p.id}
            disabled={importMailings.isPending}
            onChange={() => setPlatform(p.id)}
          />
        ))}
      </fieldset>
    </MappedImportDialog>
  );
}

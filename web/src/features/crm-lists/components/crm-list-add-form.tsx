import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { getListCrmListsQueryKey, useCreateCrmList, useUploadCrmList } from '@/api/gen';
import type { OriginCode, UploadCrmListParams } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { FilePicker } from '@/components/form/file-picker';
import { OriginCodeSelect } from '@/components/form/origin-code-select';
import { trackJob } from '@/lib/job-tracker';
import { notifyCrmSuccess } from '@/lib/notifications';
import { useHasPermission } from '@/lib/use-permission';

type CreateType = 'query' | 'upload';

/** Creates a CRM list: a name and either a query over origin codes or an uploaded file (imported by a job). */
export function CrmListAddForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [createType, setCreateType] = useState<CreateType>('query');
  const [originCodes, setOriginCodes] = useState<OriginCode[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [createNewContacts, setCreateNewContacts] = useState(false);
  const [overwriteOriginCode, setOverwriteOriginCode] = useState(false);
  const [uploadOriginCode, setUploadOriginCode] = useState('');
  // An upload creates contacts and may overwrite their origin codes: the server asks for pageContacts.
  const canUpload = useHasPermission('pageContacts');
  const create = useCreateCrmList({
    mutation: {
      meta: { errorMessage: 'Could not create the list' },
      onSuccess: async (list) => {
        await queryClient.invalidateQueries({ queryKey: getListCrmListsQueryKey() });
        notifyCrmSuccess('List created');
        await navigate(`/crm-list-detail/${list.id}`);
      },
    },
  });

  const upload = useUploadCrmList({
    mutation: {
      meta: { errorMessage: 'Could not upload the list' },
      onSuccess: async (job) => {
        notifyCrmSuccess('Starting upload');
        trackJob(job);
        await queryClient.invalidateQueries({ queryKey: getListCrmListsQueryKey() });
        await navigate('/crm-lists');
      },
    },
  });

  const nameMissing = name.trim() === '';
  const pending = create.isPending || upload.isPending;
  const canSubmit =
    !nameMissing && !pending && (createType === 'query' ? originCodes.length > 0 : file !== null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!canSubmit) return;
    if (createType === 'query') {
      create.mutate({ data: { name: name.trim(), originCodes: originCodes.map((code) => code.id) } });
      return;
    }
    if (!file) return;
    const params: UploadCrmListParams = { name: name.trim() };
    const originCode = uploadOriginCode.trim();
    if (originCode) params.originCode = originCode;
    if (createNewContacts) params.createNewContacts = '1';
    if (overwriteOriginCode) params.overwriteOriginCode = '1';
    upload.mutate({ data: { file }, params });
  };

  return (
    <Form onSubmit={onSubmit} noValidate className="crm-list-add-form">
      <Field
        id="crm-list-name"
        label="List name"
        value={name}
        maxLength={200}
        onChange={(e) => setName(e.target.value)}
        onBlur={() => setTouched(true)}
        required
        invalid={touched && nameMissing}
        error="You must enter a value"
      />
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Create Type</legend>
        <Form.Check
          inline
          type="radio"
          id="crm-list-type-query"
          name="crm-list-type"
          label="Query"
          checked={createType === 'query'}
          onChange={() => setCreateType('query')}
        />
        {canUpload && (
          <Form.Check
            inline
            type="radio"
            id="crm-list-type-upload"
            name="crm-list-type"
            label="Upload File"
            checked={createType === 'upload'}
            onChange={() => setCreateType('upload')}
          />
        )}
      </fieldset>
      {createType === 'query' ? (
        <OriginCodeSelect value={originCodes} onChange={setOriginCodes} disabled={pending} />
      ) : (
        <>
          <FilePicker
            label="File"
            accept=".csv,.xls,.xlsx"
            value={file}
            onChange={setFile}
            hint="The file should include an 'Email' column."
            disabled={pending}
          />
          <Form.Check
            type="switch"
            role="switch"
            className="mb-3"
            id="crm-list-create-new-contacts"
            label="Create new contacts"
            checked={createNewContacts}
            disabled={pending}
            onChange={(e) => setCreateNewContacts(e.target.checked)}
          />
          <Form.Check
            type="switch"
            role="switch"
            className="mb-3"
            id="crm-list-overwrite-origin-code"
            label="Overwrite origin code"
            checked={overwriteOriginCode}
            disabled={pending}
            onChange={(e) => setOverwriteOriginCode(e.target.checked)}
          />
          <Form.Group className="mb-3" controlId="crm-list-origin-code">
            <Form.Label>Origin code</Form.Label>
            <Form.Control
              value={uploadOriginCode}
              maxLength={200}
              disabled={pending}
              onChange={(e) => setUploadOriginCode(e.target.value)}
            />
          </Form.Group>
        </>
      )}
      <Button type="submit" disabled={!canSubmit}>
        Create List
      </Button>
    </Form>
  );
}

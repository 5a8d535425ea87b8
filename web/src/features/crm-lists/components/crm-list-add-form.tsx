import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { getListCrmListsQueryKey, useCreateCrmList } from '@/api/gen';
import type { OriginCode } from '@/api/gen/model';
import { OriginCodeSelect } from '@/components/form/origin-code-select';
import { notifySuccess } from '@/lib/notifications';

type CreateType = 'query' | 'upload';

/** Creates a CRM list: a name and either a query over origin codes or (later) an uploaded file. */
export function CrmListAddForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [createType, setCreateType] = useState<CreateType>('query');
  const [originCodes, setOriginCodes] = useState<OriginCode[]>([]);
  const create = useCreateCrmList({
    mutation: {
      meta: { errorMessage: 'Could not create the list' },
      onSuccess: async (list) => {
        await queryClient.invalidateQueries({ queryKey: getListCrmListsQueryKey() });
        notifySuccess('List created');
        await navigate(`/crm-list-detail/${list.id}`);
      },
    },
  });

  const nameMissing = name.trim() === '';
  const canSubmit = createType === 'query' && !nameMissing && originCodes.length > 0 && !create.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!canSubmit) return;
    create.mutate({ data: { name: name.trim(), originCodes: originCodes.map((code) => code.id) } });
  };

  return (
    <Form onSubmit={onSubmit} noValidate className="crm-list-add-form">
      <Form.Group className="mb-3" controlId="crm-list-name">
        <Form.Label>List name</Form.Label>
        <Form.Control
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setTouched(true)}
          isInvalid={touched && nameMissing}
          required
        />
        <Form.Control.Feedback type="invalid">You must enter a value</Form.Control.Feedback>
      </Form.Group>
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
        <Form.Check
          inline
          type="radio"
          id="crm-list-type-upload"
          name="crm-list-type"
          label="Upload File"
          checked={createType === 'upload'}
          onChange={() => setCreateType('upload')}
        />
      </fieldset>
      {createType === 'query' ? (
        <OriginCodeSelect value={originCodes} onChange={setOriginCodes} disabled={create.isPending} />
      ) : (
        <p className="text-body-secondary">Uploading a file is not available yet.</p>
      )}
      <Button type="submit" disabled={!canSubmit}>
        Create List
      </Button>
    </Form>
  );
}

import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  createMailingTemplate,
  getGetMailingTemplateQueryKey,
  getListMailingTemplatesQueryKey,
  updateMailingTemplate,
  useDeleteMailingTemplate,
  useGetMailingTemplate,
} from '@/api/gen';
import type { MailingTemplate } from '@/api/gen/model';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Field } from '@/components/form/field';
import { HtmlBodyEditor } from '@/components/html-body-editor';
import { PageSpinner } from '@/components/page-spinner';
import { notifyCrmSuccess } from '@/lib/notifications';
import { MERGE_TAGS } from '../utils';
import { TEMPLATES_CRUMBS } from './crm-mailing-templates-page';
import { forgetDeleted } from '@/lib/forget-deleted';

const NAME_MAX = 200;

function TemplateFields({ template }: { template: MailingTemplate | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(template?.name ?? '');
  const [bodyHtml, setBodyHtml] = useState(template?.bodyHtml ?? '');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const save = useMutation({
    meta: { errorMessage: 'Could not save the template' },
    mutationFn: () => {
      const data = { name: name.trim(), bodyHtml };
      return template ? updateMailingTemplate(template.id, data) : createMailingTemplate(data);
    },
    onSuccess: async (saved) => {
      queryClient.setQueryData(getGetMailingTemplateQueryKey(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: getListMailingTemplatesQueryKey() });
      if (template) {
        notifyCrmSuccess('Template updated');
      } else {
        notifyCrmSuccess('Template created');
        await navigate(`/crm-mailing-template-detail/${saved.id}`);
      }
    },
  });

  const remove = useDeleteMailingTemplate({
    mutation: {
      meta: { errorMessage: 'Could not delete the template' },
      onSuccess: async () => {
        setConfirming(false);
        await forgetDeleted(queryClient, {
          item: template ? getGetMailingTemplateQueryKey(template.id) : undefined,
          lists: [getListMailingTemplatesQueryKey()],
          leave: () => navigate('/crm-mailing-templates'),
        });
      },
      onError: () => setConfirming(false),
    },
  });

  const nameMissing = name.trim() === '';
  const busy = save.isPending || remove.isPending;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameMissing || busy) return;
    save.mutate();
  };

  return (
    <Form onSubmit={onSubmit} noValidate className="crm-mailing-template-editor">
      <Field
        id="crm-template-name"
        label="Template name"
        value={name}
        maxLength={NAME_MAX}
        onChange={(e) => setName(e.target.value)}
        onBlur={() => setTouched(true)}
        required
        invalid={touched && nameMissing}
        error="You must enter a value"
      />
      <div className="mb-3">
        <HtmlBodyEditor
          id="crm-template-body"
          value={bodyHtml}
          onChange={setBodyHtml}
          mergeTags={MERGE_TAGS}
          defaultMode="source"
          previewTitle="Template preview"
        />
      </div>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={nameMissing || busy}>
          Save
        </Button>
        {template && (
          <Button variant="outline-danger" onClick={() => setConfirming(true)} disabled={busy}>
            Delete
          </Button>
        )}
      </div>
      {template && (
        <ConfirmDeleteDialog
          show={confirming}
          busy={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate({ id: template.id })}
        />
      )}
    </Form>
  );
}

/** The template editor: a new template (no id) or a saved one. */
export function CrmMailingTemplateEditor({ id }: { id?: number }) {
  const isNew = id === undefined;
  const valid = isNew || (Number.isInteger(id) && id > 0);
  const template = useGetMailingTemplate(id ?? 0, {
    query: { enabled: !isNew && valid, meta: { errorMessage: 'Could not load the template' } },
  });
  const title = isNew ? 'Create Template' : template.data ? template.data.name || 'Untitled' : 'Template';
  return (
    <>
      <Breadcrumbs crumbs={[...TEMPLATES_CRUMBS, { label: title }]} />
      <h1 className="h3 mb-3">{title}</h1>
      {isNew ? (
        <TemplateFields template={null} />
      ) : !valid || template.isError ? (
        <Alert variant="danger">
          {template.error?.status === 404 || !valid ? 'This template does not exist.' : 'Could not load the template.'}
        </Alert>
      ) : template.isPending ? (
        <PageSpinner label="Loading template" />
      ) : (
        <TemplateFields key={template.data.id} template={template.data} />
      )}
    </>
  );
}

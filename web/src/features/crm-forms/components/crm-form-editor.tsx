import { useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  createCrmForm,
  getGetCrmFormQueryKey,
  getListCrmFormsQueryKey,
  updateCrmForm,
  useDeleteCrmForm,
  useGetCrmForm,
} from '@/api/gen';
import type { Form as CrmForm, FormInput, FormStyle, OriginCode } from '@/api/gen/model';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { DetailGrid } from '@/components/detail-grid';
import { Field } from '@/components/form/field';
import { OriginCodeSingleSelect } from '@/components/form/origin-code-select';
import { PageSpinner } from '@/components/page-spinner';
import { notifyCrmSuccess } from '@/lib/notifications';
import { getClientShort } from '@/lib/session';
import { useHasPermission } from '@/lib/use-permission';
import { DEFAULT_FORM_BODY, formatCount, formDisplayName, isFillable, NOT_FILLABLE, publicFormLink } from '../utils';
import { FORMS_CRUMBS } from './crm-forms-page';
import { FormPreview } from './form-preview';
import { FormSignups } from './form-signups';
import { FormStyleFields, styleValid } from './form-style-fields';
import { forgetDeleted } from '@/lib/forget-deleted';

type OriginMode = 'new' | 'existing';

const NAME_MAX = 200;

/** What is sent: trimmed, empty fields as null (the default style). */
const cleanStyle = (style: FormStyle): FormStyle => {
  const clean = (v: string | null | undefined) => v?.trim() || null;
  return {
    primaryColor: clean(style.primaryColor),
    backgroundColor: clean(style.backgroundColor),
    logoUrl: clean(style.logoUrl),
    buttonText: clean(style.buttonText),
  };
};

/** The public link of a saved form, with a copy button. */
function PublicLink({ id }: { id: number }) {
  const link = publicFormLink(window.location.origin, id, getClientShort() ?? '');
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard access: select the text so the user can copy it.
      input.current?.select();
    }
  };
  return (
    <Form.Group className="mb-3" controlId="crm-form-public-link">
      <Form.Label>Public form link</Form.Label>
      <InputGroup>
        <Form.Control ref={input} readOnly value={link} onFocus={(e) => e.target.select()} />
        <Button variant="outline-secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </InputGroup>
    </Form.Group>
  );
}

/** The editor's fields for a new form (`form` null) or a saved one. */
function FormEditorFields({ form }: { form: CrmForm | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isNew = form === null;
  const [name, setName] = useState(form?.name ?? '');
  const [touched, setTouched] = useState(false);
  // A saved form keeps its origin code: only an existing code can be chosen.
  const [mode, setMode] = useState<OriginMode>(isNew ? 'new' : 'existing');
  const [newCode, setNewCode] = useState('');
  const [existingCode, setExistingCode] = useState<OriginCode | null>(
    form?.externalOriginCodeId != null
      ? {
          id: form.externalOriginCodeId,
          name: form.originCodeName ?? '',
          label: form.originCodeName ?? String(form.externalOriginCodeId),
        }
      : null,
  );
  const [redirectUrl, setRedirectUrl] = useState(form?.redirect_url ?? '');
  const [bodyHtml, setBodyHtml] = useState(form?.bodyHtml ?? '');
  const [enabled, setEnabled] = useState(form?.enabled ?? true);
  const [style, setStyle] = useState<FormStyle>(form?.style ?? {});
  const [confirming, setConfirming] = useState(false);

  const save = useMutation({
    mutationFn: async (): Promise<CrmForm> => {
      const redirect = redirectUrl.trim();
      const data: FormInput = { name: name.trim(), enabled: enabled && fillable, style: cleanStyle(style) };
      // A new code goes by name with the form, so the server creates both or neither.
      const code = newCode.trim();
      if (mode === 'new' && code) data.originCodeName = code;
      if (mode === 'existing' && existingCode) data.externalOriginCodeId = existingCode.id;
      if (isNew) {
        if (redirect) data.redirect_url = redirect;
        // Left out when empty: the server supplies the default body (an e-mail field and a submit button).
        if (bodyHtml.trim()) data.bodyHtml = bodyHtml;
        return createCrmForm(data);
      }
      data.redirect_url = redirect;
      data.bodyHtml = bodyHtml;
      return updateCrmForm(form.id, data);
    },
    onSuccess: async (saved) => {
      queryClient.setQueryData(getGetCrmFormQueryKey(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: getListCrmFormsQueryKey() });
      notifyCrmSuccess('Form saved');
      await navigate(`/crm-form-detail/${saved.id}`);
    },
  });

  const remove = useDeleteCrmForm({
    mutation: {
      meta: { errorMessage: 'Could not delete the form' },
      onSuccess: async () => {
        setConfirming(false);
        await forgetDeleted(queryClient, {
          item: form ? getGetCrmFormQueryKey(form.id) : undefined,
          lists: [getListCrmFormsQueryKey()],
          leave: () => navigate('/crm-forms'),
        });
      },
      onError: () => setConfirming(false),
    },
  });

  const nameMissing = name.trim() === '';
  const nameValid = !nameMissing && name.trim().length <= NAME_MAX;
  const canSave = nameValid && styleValid(style);
  // An empty body is saved as the default one: preview that.
  const previewBody = bodyHtml.trim() ? bodyHtml : DEFAULT_FORM_BODY;
  // A body with nothing to fill in is never enabled: its public page would be a dead end.
  const fillable = isFillable(previewBody);
  const busy = save.isPending || remove.isPending;
  const originCodeText = mode === 'new' ? newCode.trim() : (existingCode?.label ?? '');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!canSave || busy) return;
    save.mutate();
  };

  return (
    <Form onSubmit={onSubmit} noValidate className="crm-form-editor">
      <Tabs id="crm-form-editor-tabs" defaultActiveKey="setup" className="mb-3">
        <Tab eventKey="setup" title="Form Setup">
          <Field
            id="crm-form-name"
            label="Form name"
            value={name}
            maxLength={NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched(true)}
            required
            invalid={touched && nameMissing}
            error="You must enter a value"
          />
          <fieldset className="mb-3">
            <legend className="form-label fs-6">Origin code</legend>
            <Form.Check
              inline
              type="radio"
              id="crm-form-origin-new"
              name="crm-form-origin"
              label="Create New"
              checked={mode === 'new'}
              disabled={!isNew}
              onChange={() => setMode('new')}
            />
            <Form.Check
              inline
              type="radio"
              id="crm-form-origin-existing"
              name="crm-form-origin"
              label="Use Existing"
              checked={mode === 'existing'}
              onChange={() => setMode('existing')}
            />
          </fieldset>
          {mode === 'new' ? (
            <Form.Group className="mb-3" controlId="crm-form-new-origin-code">
              <Form.Label>New origin code</Form.Label>
              <Form.Control value={newCode} maxLength={200} onChange={(e) => setNewCode(e.target.value)} />
            </Form.Group>
          ) : (
            <OriginCodeSingleSelect label="Existing origin code" value={existingCode} onChange={setExistingCode} />
          )}
          <Form.Group className="mb-3" controlId="crm-form-redirect">
            <Form.Label>Redirect URL</Form.Label>
            <Form.Control
              type="url"
              value={redirectUrl}
              maxLength={2000}
              placeholder="https://…"
              onChange={(e) => setRedirectUrl(e.target.value)}
            />
            <Form.Text muted>Where visitors go after signing up; empty for a thank-you message.</Form.Text>
          </Form.Group>
        </Tab>
        <Tab eventKey="html" title="HTML Editor">
          <div className="row g-3">
            <Form.Group className="col-lg-6" controlId="crm-form-body">
              <Form.Label>Body HTML</Form.Label>
              <Form.Control
                as="textarea"
                rows={18}
                className="font-monospace"
                spellCheck={false}
                value={bodyHtml}
                onChange={(e) => setBodyHtml(e.target.value)}
              />
              {isNew && bodyHtml.trim() === '' && (
                <Form.Text muted>Leave empty for the default form: an e-mail field and a submit button.</Form.Text>
              )}
              {!fillable && <Form.Text className="d-block text-danger">{NOT_FILLABLE}</Form.Text>}
            </Form.Group>
            <div className="col-lg-6">
              <div className="form-label">Preview</div>
              <FormPreview title="Form preview" name={name} style={style} bodyHtml={previewBody} />
            </div>
          </div>
        </Tab>
        <Tab eventKey="style" title="Style">
          <div className="row g-3">
            <div className="col-lg-6">
              <FormStyleFields style={style} onChange={setStyle} />
            </div>
            <div className="col-lg-6">
              <div className="form-label">Preview</div>
              <FormPreview title="Style preview" name={name} style={style} bodyHtml={previewBody} />
            </div>
          </div>
        </Tab>
        <Tab eventKey="confirm" title="Confirm">
          <Card className="mb-3">
            <Card.Body>
              <DetailGrid
                rows={[
                  ['Name', name.trim() || '—'],
                  ['Submissions', formatCount(form?.submissions ?? 0)],
                  ['Redirect', redirectUrl.trim() || '—'],
                  ['Origin Code', originCodeText || '—'],
                ]}
              />
            </Card.Body>
          </Card>
          <Form.Check
            type="switch"
            role="switch"
            className={fillable ? 'mb-3' : 'mb-1'}
            id="crm-form-enabled"
            label="Enabled"
            checked={enabled && fillable}
            disabled={!fillable}
            aria-describedby={fillable ? undefined : 'crm-form-not-fillable'}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          {!fillable && (
            <Form.Text id="crm-form-not-fillable" className="d-block mb-3 text-danger">
              {NOT_FILLABLE}
            </Form.Text>
          )}
          {form && <PublicLink id={form.id} />}
          <div className="d-flex gap-2">
            <Button type="submit" disabled={!canSave || busy}>
              Save
            </Button>
            {form && (
              <Button variant="outline-danger" onClick={() => setConfirming(true)} disabled={busy}>
                Delete
              </Button>
            )}
          </div>
        </Tab>
      </Tabs>
      {form && (
        <ConfirmDeleteDialog
          show={confirming}
          busy={remove.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate({ id: form.id })}
        />
      )}
    </Form>
  );
}

/** Signups are contacts' addresses: the server shows them to pageContacts only. */
function SignupsIfAllowed({ formId }: { formId: number }) {
  return useHasPermission('pageContacts') ? <FormSignups formId={formId} /> : null;
}

/** The form editor: a new form (no id) or a saved one (with its recent signups). */
export function CrmFormEditor({ id }: { id?: number }) {
  const isNew = id === undefined;
  const valid = isNew || (Number.isInteger(id) && id > 0);
  const form = useGetCrmForm(id ?? 0, {
    query: { enabled: !isNew && valid, meta: { errorMessage: 'Could not load the form' } },
  });
  const title = isNew ? 'Create Form' : form.data ? formDisplayName(form.data.name) : 'Form';
  return (
    <>
      <Breadcrumbs crumbs={[...FORMS_CRUMBS, { label: title }]} />
      <h1 className="h3 mb-3">{title}</h1>
      {isNew ? (
        <FormEditorFields form={null} />
      ) : !valid || form.isError ? (
        <Alert variant="danger">
          {form.error?.status === 404 || !valid ? 'This form does not exist.' : 'Could not load the form.'}
        </Alert>
      ) : form.isPending ? (
        <PageSpinner label="Loading form" />
      ) : (
        <>
          <FormEditorFields key={form.data.id} form={form.data} />
          <SignupsIfAllowed formId={form.data.id} />
        </>
      )}
    </>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  checkMailingMergeTags,
  createMailing,
  getGetMailingQueryKey,
  getListMailingsQueryKey,
  updateMailing,
  useGetMailing,
  useListCrmLists,
  useListMailingAudiences,
  useListMailingTemplates,
  useListSenderNames,
  useSendMailingToMyInbox,
} from '@/api/gen';
import type { Mailing, MergeCheck } from '@/api/gen/model';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { DetailGrid } from '@/components/detail-grid';
import { HtmlBodyEditor } from '@/components/html-body-editor';
import { PageSpinner } from '@/components/page-spinner';
import { notifyCrmSuccess } from '@/lib/notifications';
import { formatDateTime } from '@/lib/format';
import { isEditable, MERGE_TAGS } from '../utils';
import { MAILINGS_CRUMBS } from './crm-mailings-page';
import { MailingSetupFields } from './mailing-setup-fields';
import { MailingBodyPreview, MailingReadOnly } from './mailing-summary';
import { useMailingDelete } from './use-mailing-delete';
import { useMailingDraft } from './use-mailing-draft';

/** The editor's tabs for a new mailing (`mailing` null) or an editable saved one. */
function MailingEditorFields({ mailing }: { mailing: Mailing | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const draft = useMailingDraft(mailing);
  const {
    name,
    senderId,
    subjectLine,
    listId,
    segmentId,
    audienceKind,
    suppressions,
    variants,
    bodyHtml,
    setBodyHtml,
    sendTimeIso,
    missing,
    setupValid,
  } = draft;
  const [templateId, setTemplateId] = useState('');
  const [touched, setTouched] = useState(false);

  const senders = useListSenderNames({ query: { meta: { errorMessage: 'Could not load senders' } } });
  const lists = useListCrmLists({ query: { meta: { errorMessage: 'Could not load lists' } } });
  const audiences = useListMailingAudiences({ query: { meta: { errorMessage: 'Could not load segments' } } });
  const segments = audiences.data?.filter((a) => a.kind === 'segment') ?? [];
  const templates = useListMailingTemplates({ query: { meta: { errorMessage: 'Could not load templates' } } });
  const remove = useMailingDelete(mailing);

  const save = useMutation({
    mutationFn: (isDraft: boolean): Promise<Mailing> => {
      const data = draft.input(isDraft);
      return mailing ? updateMailing(mailing.id, data) : createMailing(data);
    },
    onSuccess: async (saved, isDraft) => {
      queryClient.setQueryData(getGetMailingQueryKey(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: getListMailingsQueryKey() });
      notifyCrmSuccess(isDraft ? 'Draft saved' : 'Mailing confirmed');
      await navigate('/crm-mailings');
    },
  });

  const testSend = useSendMailingToMyInbox({
    mutation: { onSuccess: () => notifyCrmSuccess('Draft sent') },
  });

  // Confirm first asks the server which merge tags recipients will see blank; with any, the warnings show and a
  // second click ("Confirm anyway") confirms. The warnings hold for the mailing exactly as it was checked.
  const [checked, setChecked] = useState<{ input: string; result: MergeCheck } | null>(null);
  const currentInput = JSON.stringify(draft.input(false));
  const warnings = checked && checked.input === currentInput ? checked.result.warnings : [];
  const mergeCheck = useMutation({
    mutationFn: () => checkMailingMergeTags(draft.input(false), mailing ? { id: mailing.id } : undefined),
    onSuccess: (result) => {
      if (result.warnings.length === 0) save.mutate(false);
      else setChecked({ input: currentInput, result });
    },
  });
  const confirm = () => {
    if (warnings.length > 0) save.mutate(false);
    else mergeCheck.mutate();
  };

  const busy = save.isPending || testSend.isPending || remove.busy || mergeCheck.isPending;

  const chooseTemplate = (value: string) => {
    setTemplateId(value);
    const template = templates.data?.find((t) => String(t.id) === value);
    if (template) setBodyHtml(template.bodyHtml);
  };

  const senderLabel = senders.data?.find((s) => String(s.id) === senderId)?.label ?? mailing?.senderName ?? '';
  const listName =
    audienceKind === 'list'
      ? (lists.data?.find((l) => String(l.id) === listId)?.name ?? mailing?.listName ?? '')
      : (segments.find((g) => String(g.id) === segmentId)?.name ?? mailing?.segmentName ?? '');
  const suppressedNames = suppressions
    .map((key) => audiences.data?.find((a) => `${a.kind}:${a.id}` === key)?.name)
    .filter(Boolean)
    .join(', ');
  const invalid = (field: keyof typeof missing) => touched && missing[field];

  return (
    <div className="crm-mailing-editor">
      <Tabs id="crm-mailing-editor-tabs" defaultActiveKey="setup" className="mb-3" onSelect={() => setTouched(true)}>
        <Tab eventKey="setup" title="Mailing Setup">
          <MailingSetupFields
            draft={draft}
            invalid={invalid}
            onTouch={() => setTouched(true)}
            senders={senders.data}
            lists={lists.data}
            segments={segments}
            audiences={audiences.data}
          />
        </Tab>
        <Tab eventKey="html" title="HTML Editor">
          <Form.Group className="mb-3" controlId="crm-mailing-template">
            <Form.Label>Template</Form.Label>
            <Form.Select value={templateId} onChange={(e) => chooseTemplate(e.target.value)}>
              <option value="">Choose a template…</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={String(t.id)}>
                  {t.name || 'Untitled'}
                </option>
              ))}
            </Form.Select>
            <Form.Text muted>Choosing a template replaces the body with the template's.</Form.Text>
          </Form.Group>
          <HtmlBodyEditor
            id="crm-mailing-body"
            value={bodyHtml}
            onChange={setBodyHtml}
            mergeTags={MERGE_TAGS}
            previewTitle="Body preview"
          />
        </Tab>
        <Tab eventKey="confirm" title="Confirm">
          <Card className="mb-3">
            <Card.Body>
              <DetailGrid
                rows={[
                  ['Name', name.trim() || '—'],
                  ['Sender', senderLabel || '—'],
                  ['Subject', subjectLine.trim() || '—'],
                  ['Send time', sendTimeIso ? formatDateTime(sendTimeIso) : '—'],
                  [audienceKind === 'list' ? 'List' : 'Segment', listName || '—'],
                  ['Left out', suppressedNames || '—'],
                  ['Variants', variants.length > 0 ? `A to ${String.fromCharCode(65 + variants.length)}` : 'A only'],
                  ['Frequency cap', draft.respectCap ? 'Respected' : 'Ignored: everyone in the audience gets it'],
                ]}
              />
            </Card.Body>
          </Card>
          {!setupValid && (
            <Alert variant="warning">Complete the Mailing Setup: name, sender, subject, send time and list.</Alert>
          )}
          <div className="mb-3">
            <div className="form-label">Preview</div>
            <MailingBodyPreview html={bodyHtml} title="Mailing preview" />
          </div>
          {warnings.length > 0 && (
            <Alert variant="warning" aria-label="Merge tag warnings">
              <ul className="mb-0 ps-3">
                {warnings.map((w) => (
                  <li key={w.tag}>{w.message}</li>
                ))}
              </ul>
            </Alert>
          )}
          <div className="d-flex flex-wrap gap-2">
            <Button variant="outline-primary" disabled={!setupValid || busy} onClick={() => save.mutate(true)}>
              Save Draft
            </Button>
            <Button
              variant="outline-secondary"
              disabled={!setupValid || busy}
              onClick={() =>
                testSend.mutate({
                  data: {
                    name: name.trim(),
                    subjectLine: subjectLine.trim(),
                    senderId: Number(senderId),
                    sendTime: sendTimeIso ?? undefined,
                    listId: audienceKind === 'list' ? Number(listId) : undefined,
                    bodyHtml,
                    previewText: draft.previewText,
                    mailingId: mailing?.id ?? null,
                  },
                })
              }
            >
              Send to my inbox
            </Button>
            <Button disabled={!setupValid || busy} onClick={confirm}>
              {warnings.length > 0 ? 'Confirm anyway' : 'Confirm'}
            </Button>
            {mailing && (
              <Button variant="outline-danger" onClick={remove.ask} disabled={busy}>
                Delete
              </Button>
            )}
          </div>
        </Tab>
      </Tabs>
      {remove.dialog}
    </div>
  );
}

function SentMailing({ mailing }: { mailing: Mailing }) {
  const remove = useMailingDelete(mailing);
  return (
    <>
      <MailingReadOnly mailing={mailing} onDelete={remove.ask} busy={remove.busy} />
      {remove.dialog}
    </>
  );
}

/** The mailing editor: a new mailing (no id), an editable saved one, or a read-only sent one. */
export function CrmMailingEditor({ id }: { id?: number }) {
  const isNew = id === undefined;
  const valid = isNew || (Number.isInteger(id) && id > 0);
  const mailing = useGetMailing(id ?? 0, {
    query: {
      enabled: !isNew && valid,
      // While the worker is sending, follow its progress (delivery, then done or paused).
      refetchInterval: (query) => (query.state.data?.delivery === 'sending' ? 5_000 : false),
      meta: { errorMessage: 'Could not load the mailing' },
    },
  });
  const title = isNew ? 'Send Mailing' : mailing.data ? mailing.data.name || 'Untitled' : 'Mailing';
  return (
    <>
      <Breadcrumbs crumbs={[...MAILINGS_CRUMBS, { label: title }]} />
      <h1 className="h3 mb-3">{title}</h1>
      {isNew ? (
        <MailingEditorFields mailing={null} />
      ) : !valid || mailing.isError ? (
        <Alert variant="danger">
          {mailing.error?.status === 404 || !valid ? 'This mailing does not exist.' : 'Could not load the mailing.'}
        </Alert>
      ) : mailing.isPending ? (
        <PageSpinner label="Loading mailing" />
      ) : isEditable(mailing.data) ? (
        <MailingEditorFields key={mailing.data.id} mailing={mailing.data} />
      ) : (
        <SentMailing mailing={mailing.data} />
      )}
    </>
  );
}

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  createMailing,
  getGetMailingQueryKey,
  getListMailingsQueryKey,
  updateMailing,
  useDeleteMailing,
  useGetMailing,
  useListCrmLists,
  useListMailingAudiences,
  useListMailingTemplates,
  useListSenderNames,
  useSendMailingToMyInbox,
} from '@/api/gen';
import type { Mailing, MailingInput, VariantInput } from '@/api/gen/model';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { DetailGrid } from '@/components/detail-grid';
import { HtmlBodyEditor } from '@/components/html-body-editor';
import { PageSpinner } from '@/components/page-spinner';
import { notifyCrmSuccess } from '@/lib/notifications';
import { formatDateTime } from '@/lib/format';
import { fromDateTimeLocal, isEditable, MERGE_TAGS, toDateTimeLocal } from '../utils';
import { MAILINGS_CRUMBS } from './crm-mailings-page';
import { MailingBodyPreview, MailingReadOnly } from './mailing-summary';
import { VariantsEditor, variantsOf } from './variants-editor';

const NAME_MAX = 200;
const SUBJECT_MAX = 300;

/** Delete with the shared confirmation, then back to the mailings. */
function useMailingDelete(mailing: Mailing | null) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteMailing({
    mutation: {
      meta: { errorMessage: 'Could not delete the mailing' },
      onSuccess: async () => {
        setConfirming(false);
        if (mailing) queryClient.removeQueries({ queryKey: getGetMailingQueryKey(mailing.id) });
        await queryClient.invalidateQueries({ queryKey: getListMailingsQueryKey() });
        await navigate('/crm-mailings');
      },
      onError: () => setConfirming(false),
    },
  });
  const dialog = mailing ? (
    <ConfirmDeleteDialog
      show={confirming}
      busy={remove.isPending}
      onCancel={() => setConfirming(false)}
      onConfirm={() => remove.mutate({ id: mailing.id })}
    />
  ) : null;
  return { ask: () => setConfirming(true), busy: remove.isPending, dialog };
}

/** The editor's tabs for a new mailing (`mailing` null) or an editable saved one. */
function MailingEditorFields({ mailing }: { mailing: Mailing | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(mailing?.name ?? '');
  const [senderId, setSenderId] = useState(mailing?.senderId != null ? String(mailing.senderId) : '');
  const [subjectLine, setSubjectLine] = useState(mailing?.subjectLine ?? '');
  const [sendTime, setSendTime] = useState(toDateTimeLocal(mailing?.sendTime));
  const [search] = useSearchParams();
  const askedSegment = !mailing && /^\d+$/.test(search.get('segment') ?? '') ? (search.get('segment') ?? '') : '';
  const [listId, setListId] = useState(mailing?.listId != null ? String(mailing.listId) : '');
  const [segmentId, setSegmentId] = useState(mailing?.segmentId != null ? String(mailing.segmentId) : askedSegment);
  const [audienceKind, setAudienceKind] = useState<'list' | 'segment'>(
    mailing?.segmentId != null || askedSegment ? 'segment' : 'list',
  );
  const [suppressions, setSuppressions] = useState<string[]>(
    mailing?.suppressions.map((s) => `${s.kind}:${s.id}`) ?? [],
  );
  const [previewText, setPreviewText] = useState(mailing?.previewText ?? '');
  const [variants, setVariants] = useState<VariantInput[]>(variantsOf(mailing));
  const [bodyHtml, setBodyHtml] = useState(mailing?.bodyHtml ?? '');
  const [templateId, setTemplateId] = useState('');
  const [touched, setTouched] = useState(false);

  const senders = useListSenderNames({ query: { meta: { errorMessage: 'Could not load senders' } } });
  const lists = useListCrmLists({ query: { meta: { errorMessage: 'Could not load lists' } } });
  const audiences = useListMailingAudiences({ query: { meta: { errorMessage: 'Could not load segments' } } });
  const segments = audiences.data?.filter((a) => a.kind === 'segment') ?? [];
  const templates = useListMailingTemplates({ query: { meta: { errorMessage: 'Could not load templates' } } });
  const remove = useMailingDelete(mailing);

  const sendTimeIso = fromDateTimeLocal(sendTime);
  const missing = {
    name: name.trim() === '',
    senderId: senderId === '',
    subjectLine: subjectLine.trim() === '',
    sendTime: sendTimeIso === null,
    listId: audienceKind === 'list' ? listId === '' : segmentId === '',
  };
  const setupValid = !Object.values(missing).some(Boolean);

  const save = useMutation({
    mutationFn: (isDraft: boolean): Promise<Mailing> => {
      const data: MailingInput = {
        name: name.trim(),
        subjectLine: subjectLine.trim(),
        senderId: Number(senderId),
        sendTime: sendTimeIso ?? '',
        listId: audienceKind === 'list' ? Number(listId) : null,
        segmentId: audienceKind === 'segment' ? Number(segmentId) : null,
        suppressionListIds: suppressions.filter((s) => s.startsWith('list:')).map((s) => Number(s.slice(5))),
        suppressionSegmentIds: suppressions.filter((s) => s.startsWith('segment:')).map((s) => Number(s.slice(8))),
        previewText,
        variants,
        bodyHtml,
        isDraft,
      };
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

  const busy = save.isPending || testSend.isPending || remove.busy;

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
          <Form.Group className="mb-3" controlId="crm-mailing-name">
            <Form.Label>Mailing name</Form.Label>
            <Form.Control
              value={name}
              maxLength={NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              onBlur={() => setTouched(true)}
              isInvalid={invalid('name')}
              required
            />
            <Form.Control.Feedback type="invalid">You must enter a value</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId="crm-mailing-sender">
            <Form.Label>Sender</Form.Label>
            <Form.Select
              value={senderId}
              onChange={(e) => setSenderId(e.target.value)}
              onBlur={() => setTouched(true)}
              isInvalid={invalid('senderId')}
              required
            >
              <option value="">Choose a sender…</option>
              {senders.data?.map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.label}
                </option>
              ))}
            </Form.Select>
            <Form.Control.Feedback type="invalid">You must choose a sender</Form.Control.Feedback>
            {senders.data?.length === 0 && (
              <Form.Text muted>
                No senders yet: add one on the <Link to="/system">System</Link> page.
              </Form.Text>
            )}
          </Form.Group>
          <Form.Group className="mb-3" controlId="crm-mailing-subject">
            <Form.Label>Subject</Form.Label>
            <Form.Control
              value={subjectLine}
              maxLength={SUBJECT_MAX}
              onChange={(e) => setSubjectLine(e.target.value)}
              onBlur={() => setTouched(true)}
              isInvalid={invalid('subjectLine')}
              required
            />
            <Form.Control.Feedback type="invalid">You must enter a value</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId="crm-mailing-send-time">
            <Form.Label>Send time</Form.Label>
            <Form.Control
              type="datetime-local"
              value={sendTime}
              onChange={(e) => setSendTime(e.target.value)}
              onBlur={() => setTouched(true)}
              isInvalid={invalid('sendTime')}
              required
            />
            <Form.Control.Feedback type="invalid">You must enter a date and time</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3">
            <Form.Label as="div">Send to</Form.Label>
            <div>
              <Form.Check
                inline
                type="radio"
                id="crm-mailing-audience-list"
                name="crm-mailing-audience"
                label="A list"
                checked={audienceKind === 'list'}
                onChange={() => setAudienceKind('list')}
              />
              <Form.Check
                inline
                type="radio"
                id="crm-mailing-audience-segment"
                name="crm-mailing-audience"
                label="A segment"
                checked={audienceKind === 'segment'}
                onChange={() => setAudienceKind('segment')}
              />
            </div>
          </Form.Group>
          {audienceKind === 'list' ? (
            <Form.Group className="mb-3" controlId="crm-mailing-list">
              <Form.Label>Audience list</Form.Label>
              <Form.Select
                value={listId}
                onChange={(e) => setListId(e.target.value)}
                onBlur={() => setTouched(true)}
                isInvalid={invalid('listId')}
                required
              >
                <option value="">Choose a list…</option>
                {lists.data?.map((l) => (
                  <option key={l.id} value={String(l.id)}>
                    {l.name}
                  </option>
                ))}
              </Form.Select>
              <Form.Control.Feedback type="invalid">You must choose a list</Form.Control.Feedback>
              <Form.Text>
                <Link to="/crm-list-add">Create a list</Link>
              </Form.Text>
            </Form.Group>
          ) : (
            <Form.Group className="mb-3" controlId="crm-mailing-segment">
              <Form.Label>Audience segment</Form.Label>
              <Form.Select
                value={segmentId}
                onChange={(e) => setSegmentId(e.target.value)}
                onBlur={() => setTouched(true)}
                isInvalid={invalid('listId')}
                required
              >
                <option value="">Choose a segment…</option>
                {segments.map((g) => (
                  <option key={g.id} value={String(g.id)}>
                    {g.name} ({g.size.toLocaleString()})
                  </option>
                ))}
              </Form.Select>
              <Form.Control.Feedback type="invalid">You must choose a segment</Form.Control.Feedback>
            </Form.Group>
          )}
          <Form.Group className="mb-3" controlId="crm-mailing-suppressions">
            <Form.Label>Leave out (suppression lists and segments)</Form.Label>
            <Form.Select
              multiple
              value={suppressions}
              onChange={(e) => setSuppressions(Array.from(e.target.selectedOptions, (o) => o.value))}
            >
              {audiences.data?.map((a) => (
                <option key={`${a.kind}:${a.id}`} value={`${a.kind}:${a.id}`}>
                  {a.kind === 'list' ? 'List' : 'Segment'}: {a.name}
                </option>
              ))}
            </Form.Select>
            <Form.Text muted>Members of these are not mailed, even when they are in the audience.</Form.Text>
          </Form.Group>
          <Form.Group className="mb-3" controlId="crm-mailing-preview-text">
            <Form.Label>Preview text</Form.Label>
            <Form.Control value={previewText} maxLength={300} onChange={(e) => setPreviewText(e.target.value)} />
            <Form.Text muted>Shown after the subject in most inboxes.</Form.Text>
          </Form.Group>
          <VariantsEditor variants={variants} onChange={setVariants} senders={senders.data ?? []} />
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
                  },
                })
              }
            >
              Send to my inbox
            </Button>
            <Button disabled={!setupValid || busy} onClick={() => save.mutate(false)}>
              Confirm
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

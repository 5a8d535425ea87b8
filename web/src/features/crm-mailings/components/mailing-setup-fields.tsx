import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import type { AudienceOption, CrmList, SenderOption } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { clientTimeZone } from '@/lib/time-zone';
import type { MailingDraft } from './use-mailing-draft';
import { VariantsEditor } from './variants-editor';

const NAME_MAX = 200;
const SUBJECT_MAX = 300;

/** The Mailing Setup tab: name, sender, subject, send time, audience, suppressions, preview text, variants. */
export function MailingSetupFields({
  draft,
  invalid,
  onTouch,
  senders,
  lists,
  segments,
  audiences,
}: {
  draft: MailingDraft;
  invalid: (field: keyof MailingDraft['missing']) => boolean;
  onTouch: () => void;
  senders: SenderOption[] | undefined;
  lists: CrmList[] | undefined;
  segments: AudienceOption[];
  audiences: AudienceOption[] | undefined;
}) {
  return (
    <>
      <Field
        id="crm-mailing-name"
        label="Mailing name"
        value={draft.name}
        maxLength={NAME_MAX}
        onChange={(e) => draft.setName(e.target.value)}
        onBlur={onTouch}
        required
        invalid={invalid('name')}
        error="You must enter a value"
      />
      <Field
        id="crm-mailing-sender"
        label="Sender"
        select
        value={draft.senderId}
        onChange={(e) => draft.setSenderId(e.target.value)}
        onBlur={onTouch}
        required
        invalid={invalid('senderId')}
        error="You must choose a sender"
        hint={
          <>
            {senders?.length === 0 && (
              <Form.Text muted>
                No senders yet: add one on the <Link to="/system">System</Link> page.
              </Form.Text>
            )}
          </>
        }
      >
        <option value="">Choose a sender…</option>
        {senders?.map((s) => (
          <option key={s.id} value={String(s.id)}>
            {s.label}
          </option>
        ))}
      </Field>
      <Field
        id="crm-mailing-subject"
        label="Subject"
        value={draft.subjectLine}
        maxLength={SUBJECT_MAX}
        onChange={(e) => draft.setSubjectLine(e.target.value)}
        onBlur={onTouch}
        required
        invalid={invalid('subjectLine')}
        error="You must enter a value"
      />
      <Field
        id="crm-mailing-send-time"
        label="Send time"
        type="datetime-local"
        value={draft.sendTime}
        onChange={(e) => draft.setSendTime(e.target.value)}
        onBlur={onTouch}
        required
        invalid={invalid('sendTime')}
        error="You must enter a date and time"
        hint={<Form.Text muted>In {clientTimeZone()}, the client&apos;s time zone.</Form.Text>}
      />
      <Form.Group className="mb-3">
        <Form.Label as="div">Send to</Form.Label>
        <div>
          <Form.Check
            inline
            type="radio"
            id="crm-mailing-audience-list"
            name="crm-mailing-audience"
            label="A list"
            checked={draft.audienceKind === 'list'}
            onChange={() => draft.setAudienceKind('list')}
          />
          <Form.Check
            inline
            type="radio"
            id="crm-mailing-audience-segment"
            name="crm-mailing-audience"
            label="A segment"
            checked={draft.audienceKind === 'segment'}
            onChange={() => draft.setAudienceKind('segment')}
          />
        </div>
      </Form.Group>
      {draft.audienceKind === 'list' ? (
        <Field
          id="crm-mailing-list"
          label="Audience list"
          select
          value={draft.listId}
          onChange={(e) => draft.setListId(e.target.value)}
          onBlur={onTouch}
          required
          invalid={invalid('listId')}
          error="You must choose a list"
          hint={
            <>
              <Form.Text>
                <Link to="/crm-list-add">Create a list</Link>
              </Form.Text>
            </>
          }
        >
          <option value="">Choose a list…</option>
          {lists?.map((l) => (
            <option key={l.id} value={String(l.id)}>
              {l.name}
            </option>
          ))}
        </Field>
      ) : (
        <Field
          id="crm-mailing-segment"
          label="Audience segment"
          select
          value={draft.segmentId}
          onChange={(e) => draft.setSegmentId(e.target.value)}
          onBlur={onTouch}
          required
          invalid={invalid('listId')}
          error="You must choose a segment"
        >
          <option value="">Choose a segment…</option>
          {segments.map((g) => (
            <option key={g.id} value={String(g.id)}>
              {g.name} ({g.size.toLocaleString()})
            </option>
          ))}
        </Field>
      )}
      <Form.Group className="mb-3" controlId="crm-mailing-suppressions">
        <Form.Label>Leave out (suppression lists and segments)</Form.Label>
        <Form.Select
          multiple
          value={draft.suppressions}
          onChange={(e) => draft.setSuppressions(Array.from(e.target.selectedOptions, (o) => o.value))}
        >
          {audiences?.map((a) => (
            <option key={`${a.kind}:${a.id}`} value={`${a.kind}:${a.id}`}>
              {a.kind === 'list' ? 'List' : 'Segment'}: {a.name}
            </option>
          ))}
        </Form.Select>
        <Form.Text muted>Members of these are not mailed, even when they are in the audience.</Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="crm-mailing-respect-cap">
        <Form.Check
          type="switch"
          label="Respect the frequency cap"
          checked={draft.respectCap}
          onChange={(e) => draft.setRespectCap(e.target.checked)}
        />
        <Form.Text muted>
          Leaves out anyone who already had their e-mails for the day or week (the cap is set on the{' '}
          <Link to="/journeys">Journeys</Link> page). Turn it off only for urgent mail.
        </Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="crm-mailing-preview-text">
        <Form.Label>Preview text</Form.Label>
        <Form.Control value={draft.previewText} maxLength={300} onChange={(e) => draft.setPreviewText(e.target.value)} />
        <Form.Text muted>Shown after the subject in most inboxes.</Form.Text>
      </Form.Group>
      <VariantsEditor variants={draft.variants} onChange={draft.setVariants} senders={senders ?? []} />
    </>
  );
}

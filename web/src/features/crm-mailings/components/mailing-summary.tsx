import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import type { Mailing } from '@/api/gen/model';
import { DetailGrid } from '@/components/detail-grid';
import { formatCount, formatDateTime, openRate } from '../utils';

/** A sandboxed rendering of a mailing body: the HTML never enters the app's DOM. */
export function MailingBodyPreview({ html, title }: { html: string; title: string }) {
  return (
    <iframe
      title={title}
      sandbox=""
      srcDoc={html}
      className="w-100 border rounded bg-white"
      style={{ height: '28rem' }}
    />
  );
}

/** A mailing that was sent (or is sending): read-only summary, rendered body, figures and Delete. */
export function MailingReadOnly({ mailing, onDelete, busy }: { mailing: Mailing; onDelete: () => void; busy: boolean }) {
  const delivery = [mailing.delivery, mailing.deliveryMessage].filter(Boolean).join(' — ');
  return (
    <>
      <Card className="mb-3">
        <Card.Header as="h2" className="h5">
          Summary
        </Card.Header>
        <Card.Body>
          <DetailGrid
            rows={[
              ['Sender', mailing.senderName ?? '—'],
              ['Subject', mailing.subjectLine || '—'],
              ['Name', mailing.name || '—'],
              ['Send time', mailing.sendTime ? formatDateTime(mailing.sendTime) : '—'],
              ['List', mailing.listName ?? '—'],
            ]}
          />
        </Card.Body>
      </Card>
      <Card className="mb-3">
        <Card.Header as="h2" className="h5">
          Results
        </Card.Header>
        <Card.Body>
          <DetailGrid
            rows={[
              ['Recipients', formatCount(mailing.recipCount)],
              ['Unique opens', formatCount(mailing.openCount)],
              ['Open rate', openRate(mailing.openCount, mailing.recipCount)],
              ['Delivery', delivery || '—'],
            ]}
          />
        </Card.Body>
      </Card>
      <div className="mb-3">
        <div className="form-label">Body</div>
        <MailingBodyPreview html={mailing.bodyHtml} title="Mailing body" />
      </div>
      <Button variant="outline-danger" onClick={onDelete} disabled={busy}>
        Delete
      </Button>
    </>
  );
}

import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useQueryClient } from '@tanstack/react-query';
import { getGetMailingQueryKey, useGetMailingStats, useResumeMailing } from '@/api/gen/mailings/mailings';
import type { Mailing, MailingStats } from '@/api/gen/model';
import { DeliveryRates, RatesDefinition } from '@/components/delivery-rates';
import { DetailGrid } from '@/components/detail-grid';
import { PageSpinner } from '@/components/page-spinner';
import { notifyCrmSuccess } from '@/lib/notifications';
import { MailingActivity } from './mailing-activity';
import { MailingRevenueFigures, hasMoney } from './mailing-revenue';
import { formatCount, formatDateTime } from '@/lib/format';
import { openRate } from '../utils';

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

const STATS_REFRESH_MS = 5_000;

/** One figure of the grid: a label and its value, named by the label for assistive technology. */
function Figure({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="col-6 col-md-3">
      <dt id={id} className="small fw-normal text-body-secondary">
        {label}
      </dt>
      <dd aria-labelledby={id} className="fs-5 mb-0">
        {children}
      </dd>
    </div>
  );
}

/** The sent mailing's figures from the stats endpoint; refreshed every 5 s while the mailing is sending. */
export function MailingFigures({ mailing }: { mailing: Mailing }) {
  const sending = mailing.delivery === 'sending';
  const stats = useGetMailingStats(mailing.id, {
    query: {
      refetchInterval: sending ? STATS_REFRESH_MS : false,
      meta: { errorMessage: 'Could not load the mailing figures' },
    },
  });
  if (stats.isPending) return <PageSpinner label="Loading figures" />;
  if (stats.isError) return <Alert variant="danger">Could not load the mailing figures.</Alert>;
  const s: MailingStats = stats.data;
  const id = (name: string) => `mailing-${mailing.id}-figure-${name}`;
  return (
    <>
      <dl className="row g-3 mb-2" aria-label="Mailing figures">
        <Figure id={id('recipients')} label="Recipients">
          {formatCount(s.recipients)}
        </Figure>
        <Figure id={id('delivered')} label="Delivered">
          {formatCount(s.delivered)}
        </Figure>
        <Figure id={id('failed')} label="Failed">
          {formatCount(s.failed)}
        </Figure>
        <Figure id={id('bounced')} label="Bounced">
          {formatCount(s.bounced)}
        </Figure>
        <Figure id={id('opens')} label="Unique opens">
          {formatCount(s.uniqueOpens)}
          {s.machineOpens > 0 && <span className="small text-body-secondary"> (+{formatCount(s.machineOpens)} machine)</span>}
        </Figure>
        <Figure id={id('clicks')} label="Clicks">
          {formatCount(s.uniqueClicks)}
          <span className="small text-body-secondary"> ({formatCount(s.clicks)} total)</span>
        </Figure>
        <Figure id={id('held-back')} label="Held back">
          {formatCount(s.heldBack)}
        </Figure>
        <Figure id={id('unsubscribes')} label="Unsubscribes">
          {formatCount(s.unsubscribes)}
        </Figure>
        <Figure id={id('open-rate')} label="Open rate">
          {openRate(s.uniqueOpens, s.recipients)}
        </Figure>
        {hasMoney(mailing) && <MailingRevenueFigures mailing={mailing} id={id} />}
      </dl>
      {s.heldBack > 0 && (
        <p className="small mb-1">
          {formatCount(s.heldBack)} held back by the frequency cap: they already had their e-mails for the day or week.
        </p>
      )}
      <div className="small text-body-secondary">
        Unique opens and clicks count people once; opens by privacy proxies and link scanners are shown apart as machine
        opens.
      </div>
    </>
  );
}

/** Where delivery stands: a warning with Resume sending when paused, a note while sending. */
function DeliveryState({ mailing }: { mailing: Mailing }) {
  const queryClient = useQueryClient();
  const resume = useResumeMailing({
    mutation: {
      onSuccess: (resumed) => {
        queryClient.setQueryData(getGetMailingQueryKey(mailing.id), resumed);
        notifyCrmSuccess('Sending resumed');
      },
    },
  });
  if (mailing.delivery === 'paused') {
    return (
      <Alert variant="warning">
        <Alert.Heading as="h3" className="h6">
          Delivery paused
        </Alert.Heading>
        <p>{mailing.deliveryMessage || 'Sending stopped before every recipient was reached.'}</p>
        <Button variant="warning" disabled={resume.isPending} onClick={() => resume.mutate({ id: mailing.id })}>
          Resume sending
        </Button>
      </Alert>
    );
  }
  if (mailing.delivery === 'sending') {
    return (
      <Alert variant="info">
        Sending… the figures refresh every 5 seconds.{mailing.deliveryMessage ? ` ${mailing.deliveryMessage}` : ''}
      </Alert>
    );
  }
  return null;
}

/** A mailing that was sent (or is sending): read-only summary, rendered body, figures and Delete. */
export function MailingReadOnly({ mailing, onDelete, busy }: { mailing: Mailing; onDelete: () => void; busy: boolean }) {
  const delivery = [mailing.delivery, mailing.deliveryMessage].filter(Boolean).join(' — ');
  return (
    <>
      <DeliveryState mailing={mailing} />
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
              ['Frequency cap', mailing.respectCap ? 'Respected' : 'Ignored'],
              ['Delivery', delivery || '—'],
            ]}
          />
        </Card.Body>
      </Card>
      <Card className="mb-3">
        <Card.Header as="h2" className="h5">
          Results
        </Card.Header>
        <Card.Body>
          <MailingFigures mailing={mailing} />
        </Card.Body>
      </Card>
      {mailing.sendAttempt && (
        <Card className="mb-3">
          <Card.Header as="h2" className="h5">
            Bounces and complaints
          </Card.Header>
          <Card.Body>
            <DeliveryRates by="provider" mailingId={mailing.id} label="Bounces and complaints by mailbox provider" />
            <RatesDefinition />
          </Card.Body>
        </Card>
      )}
      {mailing.sendAttempt && (
        <Card className="mb-3">
          <Card.Header as="h2" className="h5">
            Activity
          </Card.Header>
          <Card.Body>
            <MailingActivity id={mailing.id} />
          </Card.Body>
        </Card>
      )}
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

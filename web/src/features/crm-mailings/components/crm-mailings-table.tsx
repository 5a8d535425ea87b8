import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useListMailings } from '@/api/gen';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { MailingRevenueCells, MailingRevenueHeaders } from './mailing-revenue';
import { formatCount, formatDateTime } from '@/lib/format';
import { mailingStatus, openRate, type MailingStatus } from '../utils';

const STATUS_BG: Record<MailingStatus, string> = { DRAFT: 'secondary', CONFIRMED: 'primary', SENT: 'success' };

/** The client's mailings: name (to the editor), subject, status, sender, send time, open rate and recipients. */
export function CrmMailingsTable() {
  const { data, isPending, isError } = useListMailings({
    query: { meta: { errorMessage: 'Could not load mailings' } },
  });
  if (isPending) return <PageSpinner label="Loading mailings" />;
  if (isError) return <Alert variant="danger">Could not load mailings.</Alert>;
  if (data.length === 0) return <EmptyState>No mailings yet.</EmptyState>;
  return (
    <Table striped hover responsive aria-label="Mailings">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Subject</th>
          <th scope="col">Status</th>
          <th scope="col">Sender</th>
          <th scope="col">Send Time</th>
          <th scope="col" className="text-end">
            Open Rate
          </th>
          <th scope="col" className="text-end">
            Recipients
          </th>
          <MailingRevenueHeaders />
        </tr>
      </thead>
      <tbody>
        {data.map((mailing) => {
          const status = mailingStatus(mailing);
          return (
            <tr key={mailing.id}>
              <td>
                <Link to={`/crm-mailing-detail/${mailing.id}`}>{mailing.name || 'Untitled'}</Link>
              </td>
              <td>{mailing.subjectLine}</td>
              <td>
                <Badge bg={STATUS_BG[status]}>{status}</Badge>
              </td>
              <td>{mailing.senderName ?? ''}</td>
              <td>{mailing.sendTime ? formatDateTime(mailing.sendTime) : ''}</td>
              <td className="text-end">{openRate(mailing.openCount, mailing.recipCount)}</td>
              <td className="text-end">{formatCount(mailing.recipCount)}</td>
              <MailingRevenueCells mailing={mailing} />
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

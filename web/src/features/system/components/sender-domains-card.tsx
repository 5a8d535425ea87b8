import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListSenderDomainsQueryKey,
  useCheckSenderDomain,
  useCreateSenderDomain,
  useDeleteSenderDomain,
  useListSenderDomains,
  useUpdateSenderDomainWarmup,
} from '@/api/gen';
import type { DkimAlgorithm, RecordCheck, SenderDomain, SenderDomainInput } from '@/api/gen/model';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { columnsFor, DataTable } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { formatCount } from '@/lib/format';
import { forgetDeleted } from '@/lib/forget-deleted';
import { notifySuccess } from '@/lib/notifications';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Whether `value` looks like a domain name (example.org). */
export function isDomain(value: string): boolean {
  return DOMAIN.test(value.trim().toLowerCase().replace(/\.$/, ''));
}

/** The whole TXT record line to publish, as a DNS provider's form or a zone file takes it. */
export function dnsLine(domain: SenderDomain): string {
  return `${domain.dnsName}  TXT  "${domain.dnsRecord}"`;
}

function AddDomainForm() {
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState('');
  const [bounceDomain, setBounceDomain] = useState('');
  const [algorithm, setAlgorithm] = useState<DkimAlgorithm>('rsa');
  const [selector, setSelector] = useState('compass');
  const create = useCreateSenderDomain({
    mutation: {
      meta: { errorMessage: 'Could not add the domain' },
      onSuccess: async (added) => {
        setDomain('');
        setBounceDomain('');
        notifySuccess(`${added.domain} added: publish its DKIM record`);
        await queryClient.invalidateQueries({ queryKey: getListSenderDomainsQueryKey() });
      },
    },
  });
  const domainInvalid = domain.trim() !== '' && !isDomain(domain);
  const bounceInvalid = bounceDomain.trim() !== '' && !isDomain(bounceDomain);
  const selectorInvalid = !/^[a-z0-9][a-z0-9-]{0,62}$/i.test(selector.trim());
  const valid = isDomain(domain) && !bounceInvalid && !selectorInvalid;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || create.isPending) return;
    const data: SenderDomainInput = { domain: domain.trim(), algorithm, selector: selector.trim() };
    if (bounceDomain.trim()) data.bounceDomain = bounceDomain.trim();
    create.mutate({ data });
  };

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Add sender domain">
      <h3 className="h6">Add sender domain</h3>
      <div className="row g-2 align-items-start">
        <Field
          id="sender-domain"
          label="Domain"
          className="col-md-3"
          value={domain}
          placeholder="example.org"
          maxLength={253}
          onChange={(e) => setDomain(e.target.value)}
          invalid={domainInvalid}
          error="Not a domain name"
        />
        <Field
          id="sender-domain-bounce"
          label="Bounce domain (optional)"
          className="col-md-3"
          value={bounceDomain}
          placeholder="bounces.example.org"
          maxLength={253}
          onChange={(e) => setBounceDomain(e.target.value)}
          invalid={bounceInvalid}
          error="Not a domain name"
        />
        <Form.Group className="col-md-2" controlId="sender-domain-algorithm">
          <Form.Label>DKIM key</Form.Label>
          <Form.Select value={algorithm} onChange={(e) => setAlgorithm(e.target.value as DkimAlgorithm)}>
            <option value="rsa">RSA 2048</option>
            <option value="ed25519">Ed25519</option>
          </Form.Select>
        </Form.Group>
        <Field
          id="sender-domain-selector"
          label="Selector"
          className="col-md-2"
          value={selector}
          maxLength={63}
          onChange={(e) => setSelector(e.target.value)}
          invalid={selectorInvalid}
          error="Letters, digits and hyphens"
        />
        <div className="col-md-2 pt-md-4 mt-md-2">
          <Button type="submit" disabled={!valid || create.isPending}>
            {create.isPending ? 'Adding…' : 'Add domain'}
          </Button>
        </div>
      </div>
    </Form>
  );
}

const STATUS_TEXT: Record<RecordCheck['status'], { text: string; bg: string }> = {
  ok: { text: 'OK', bg: 'success' },
  missing: { text: 'Missing', bg: 'danger' },
  wrong: { text: 'Wrong', bg: 'warning' },
  unknown: { text: 'No answer', bg: 'secondary' },
};

/** The domain check of one sender domain: each record as found, whether mail aligns, and what to change. */
export function DomainCheckResult({ id }: { id: number }) {
  const check = useCheckSenderDomain(id, {
    query: { staleTime: 0, gcTime: 0, meta: { errorMessage: 'Could not check the domain' } },
  });
  if (check.isPending) return <PageSpinner label="Checking DNS" />;
  if (check.isError) return <Alert variant="danger">Could not check the domain.</Alert>;
  const result = check.data;
  const rows: [string, RecordCheck][] = [
    ['SPF', result.spf],
    ['DKIM', result.dkim],
    ['DMARC', result.dmarc],
  ];
  return (
    <section aria-label={`Domain check of ${result.domain}`} className="mt-3">
      <h4 className="h6">Domain check of {result.domain}</h4>
      <Table size="sm" responsive>
        <thead>
          <tr>
            <th scope="col">Record</th>
            <th scope="col">Looked up at</th>
            <th scope="col">Found</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, record]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className="text-break">{record.name}</td>
              <td className="text-break">
                {record.found.length === 0 ? <span className="text-body-secondary">None</span> : record.found.join(' | ')}
                <div className="small text-body-secondary">{record.note}</div>
              </td>
              <td>
                <Badge bg={STATUS_TEXT[record.status].bg}>{STATUS_TEXT[record.status].text}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p className="mb-1">
        {result.aligned ? (
          <Badge bg="success">Aligned</Badge>
        ) : (
          <Badge bg="danger">Not aligned</Badge>
        )}{' '}
        {result.aligned
          ? `Mail from ${result.domain} passes DMARC alignment.`
          : `Mail from ${result.domain} does not pass DMARC alignment yet.`}
      </p>
      {result.advice.length === 0 ? (
        <p className="text-success">Nothing to change.</p>
      ) : (
        <ul aria-label="What to change">
          {result.advice.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function WarmupDialog({ domain, onClose }: { domain: SenderDomain; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(domain.warmupStart ?? '');
  const [cap, setCap] = useState(domain.warmupFirstDayCap?.toString() ?? '');
  const [growth, setGrowth] = useState(domain.warmupGrowthPercent.toString());
  const save = useUpdateSenderDomainWarmup({
    mutation: {
      meta: { errorMessage: 'Could not save the warm-up plan' },
      onSuccess: async () => {
        notifySuccess('Warm-up plan saved');
        await queryClient.invalidateQueries({ queryKey: getListSenderDomainsQueryKey() });
        onClose();
      },
    },
  });
  const capNumber = Number(cap);
  const growthNumber = Number(growth);
  const capInvalid = start !== '' && !(Number.isInteger(capNumber) && capNumber >= 1 && capNumber <= 10_000_000);
  const growthInvalid = !(growth.trim() !== '' && Number.isInteger(growthNumber) && growthNumber >= 0 && growthNumber <= 1000);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (capInvalid || growthInvalid) return;
    save.mutate({
      id: domain.id,
      data: start === '' ? { start: null, growthPercent: growthNumber } : { start, firstDayCap: capNumber, growthPercent: growthNumber },
    });
  };
  return (
    <Modal show onHide={onClose} aria-labelledby="warmup-title">
      <Form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title id="warmup-title" as="h2" className="h5">
            Warm-up of {domain.domain}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small">A new domain sends at most the first day&apos;s cap, and a little more each day. Leave the start date empty for no cap.</p>
          <Field id="warmup-start" label="Start date" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
          <Field
            id="warmup-cap"
            label="First day's cap (messages)"
            type="number"
            min={1}
            value={cap}
            onChange={(e) => setCap(e.target.value)}
            invalid={capInvalid}
            error="A whole number from 1"
          />
          <Field
            id="warmup-growth"
            label="Daily growth (%)"
            type="number"
            min={0}
            max={1000}
            value={growth}
            onChange={(e) => setGrowth(e.target.value)}
            invalid={growthInvalid}
            error="A whole number from 0 to 1000"
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={capInvalid || growthInvalid || save.isPending}>
            Save plan
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

interface Row {
  domain: SenderDomain;
  onCheck: (d: SenderDomain) => void;
  onWarmup: (d: SenderDomain) => void;
  onDelete: (d: SenderDomain) => void;
}

const col = columnsFor<Row>();
const columns = col.columns([
  col.accessor((r) => r.domain.domain, { id: 'domain', header: 'Domain' }),
  col.accessor((r) => r.domain.bounceDomain ?? '', { id: 'bounce', header: 'Bounce domain' }),
  col.accessor((r) => `${r.domain.algorithm === 'rsa' ? 'RSA 2048' : 'Ed25519'}, selector ${r.domain.selector}`, {
    id: 'key',
    header: 'DKIM key',
  }),
  col.accessor((r) => r.domain.warmupCapToday, {
    id: 'cap',
    header: 'Cap today',
    cell: (info) => {
      const cap = info.getValue();
      return cap === null || cap === undefined ? 'No warm-up' : formatCount(cap);
    },
  }),
  col.display({
    id: 'actions',
    header: () => <span className="visually-hidden">Actions</span>,
    cell: ({ row: { original } }) => (
      <div className="d-flex gap-1 justify-content-end flex-wrap">
        <Button size="sm" variant="outline-primary" onClick={() => original.onCheck(original.domain)} aria-label={`Check ${original.domain.domain}`}>
          Check DNS
        </Button>
        <Button size="sm" variant="outline-secondary" onClick={() => original.onWarmup(original.domain)} aria-label={`Warm-up of ${original.domain.domain}`}>
          Warm-up
        </Button>
        <Button size="sm" variant="outline-danger" onClick={() => original.onDelete(original.domain)} aria-label={`Delete ${original.domain.domain}`}>
          Delete
        </Button>
      </div>
    ),
  }),
]);

/** The client's sender domains: their DKIM records to publish, warm-up plans and the domain check. */
export function SenderDomainsCard() {
  const queryClient = useQueryClient();
  const domains = useListSenderDomains({ query: { meta: { errorMessage: 'Could not load sender domains' } } });
  const [checking, setChecking] = useState<{ id: number; run: number } | null>(null);
  const [warmup, setWarmup] = useState<SenderDomain | null>(null);
  const [deleting, setDeleting] = useState<SenderDomain | null>(null);
  const remove = useDeleteSenderDomain({
    mutation: {
      meta: { errorMessage: 'Could not delete the domain' },
      onSuccess: async () => {
        if (checking?.id === deleting?.id) setChecking(null);
        setDeleting(null);
        await forgetDeleted(queryClient, { lists: [getListSenderDomainsQueryKey()] });
      },
      onError: () => setDeleting(null),
    },
  });
  const rows: Row[] = (domains.data ?? []).map((domain) => ({
    domain,
    onCheck: (d) => setChecking((c) => ({ id: d.id, run: (c?.run ?? 0) + 1 })),
    onWarmup: setWarmup,
    onDelete: setDeleting,
  }));

  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="h5">
        Sender domains
      </Card.Header>
      <Card.Body>
        <p className="small text-body-secondary">
          Mail from these domains is signed with DKIM. Publish each domain&apos;s record in its DNS, then check the domain.
        </p>
        {domains.isPending ? (
          <PageSpinner label="Loading sender domains" />
        ) : domains.isError ? (
          <Alert variant="danger">Could not load sender domains.</Alert>
        ) : rows.length === 0 ? (
          <EmptyState>No sender domains yet: mail is sent unsigned.</EmptyState>
        ) : (
          <>
            <DataTable
              label="Sender domains"
              columns={columns}
              data={rows}
              getRowId={(r) => String(r.domain.id)}
              cellClassName={{ actions: 'text-end', domain: 'text-break', bounce: 'text-break' }}
              small={false}
            />
            <h3 className="h6 mt-3">DNS records to publish</h3>
            {rows.map(({ domain }) => (
              <Field
                key={domain.id}
                id={`dkim-record-${domain.id}`}
                label={`DKIM record of ${domain.domain}`}
                value={dnsLine(domain)}
                readOnly
                as="textarea"
                rows={2}
                after={
                  <Button
                    variant="outline-secondary"
                    aria-label={`Copy the DKIM record of ${domain.domain}`}
                    onClick={() =>
                      void navigator.clipboard?.writeText(domain.dnsRecord).then(() => notifySuccess('Record copied'))
                    }
                  >
                    Copy
                  </Button>
                }
              />
            ))}
            {checking && <DomainCheckResult key={`${checking.id}-${checking.run}`} id={checking.id} />}
          </>
        )}
        <hr />
        <AddDomainForm />
      </Card.Body>
      {warmup && <WarmupDialog domain={warmup} onClose={() => setWarmup(null)} />}
      <ConfirmDeleteDialog
        show={deleting !== null}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting !== null && remove.mutate({ id: deleting.id })}
      />
    </Card>
  );
}

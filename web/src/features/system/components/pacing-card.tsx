import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useQueryClient } from '@tanstack/react-query';
import { getGetProviderPacingQueryKey, useGetProviderPacing, useUpdateProviderPacing } from '@/api/gen';
import type { ProviderPacing } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { notifySuccess } from '@/lib/notifications';

const PROVIDER_NAMES: Record<string, string> = {
  gmail: 'Gmail',
  yahoo: 'Yahoo and AOL',
  microsoft: 'Microsoft (Outlook, Hotmail)',
  other: 'Other domains',
};

/** Whole numbers from `min` to `max`, as typed. */
function inRange(raw: string, min: number, max: number): boolean {
  return /^\d+$/.test(raw.trim()) && Number(raw) >= min && Number(raw) <= max;
}

function PacingForm({ pacing }: { pacing: ProviderPacing[] }) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState(() =>
    pacing.map((p) => ({ provider: p.provider, perSecond: String(p.perSecond), connections: String(p.connections) })),
  );
  const update = useUpdateProviderPacing({
    mutation: {
      meta: { errorMessage: 'Could not save the pacing' },
      onSuccess: async (saved) => {
        queryClient.setQueryData(getGetProviderPacingQueryKey(), saved);
        notifySuccess('Pacing saved');
      },
    },
  });
  const set = (index: number, field: 'perSecond' | 'connections', value: string) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
  const valid = rows.every((r) => inRange(r.perSecond, 0, 100000) && inRange(r.connections, 1, 64));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || update.isPending) return;
    update.mutate({
      data: rows.map((r) => ({
        provider: r.provider,
        perSecond: Number(r.perSecond),
        connections: Number(r.connections),
      })),
    });
  };

  return (
    <Form onSubmit={onSubmit} noValidate aria-label="Pacing per mailbox provider">
      <Table size="sm" aria-label="Pacing per mailbox provider" className="align-middle">
        <thead>
          <tr>
            <th scope="col">Mailbox provider</th>
            <th scope="col">Messages a second (0: no limit)</th>
            <th scope="col">Connections</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.provider}>
              <th scope="row">{PROVIDER_NAMES[row.provider] ?? row.provider}</th>
              <td>
                <Field
                  id={`pacing-${row.provider}-rate`}
                  label={`Messages a second to ${PROVIDER_NAMES[row.provider] ?? row.provider}`}
                  labelClassName="visually-hidden"
                  className="mb-0"
                  inputMode="numeric"
                  value={row.perSecond}
                  onChange={(e) => set(index, 'perSecond', e.target.value)}
                  invalid={!inRange(row.perSecond, 0, 100000)}
                  error="A whole number from 0 to 100,000"
                />
              </td>
              <td>
                <Field
                  id={`pacing-${row.provider}-connections`}
                  label={`Connections for ${PROVIDER_NAMES[row.provider] ?? row.provider}`}
                  labelClassName="visually-hidden"
                  className="mb-0"
                  inputMode="numeric"
                  value={row.connections}
                  onChange={(e) => set(index, 'connections', e.target.value)}
                  invalid={!inRange(row.connections, 1, 64)}
                  error="A whole number from 1 to 64"
                />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Button type="submit" disabled={!valid || update.isPending}>
        Save pacing
      </Button>
    </Form>
  );
}

/**
 * How fast a send mails each mailbox provider. A provider that defers mail slows its own recipients only; the
 * others keep their pace.
 */
export function PacingCard() {
  const pacing = useGetProviderPacing({ query: { meta: { errorMessage: 'Could not load the pacing' } } });
  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="h5">
        Sending pace
      </Card.Header>
      <Card.Body>
        <p>
          Each mailbox provider gets its own rate and connections. When a provider defers mail, only its recipients
          slow down, and they speed up again as the provider accepts.
        </p>
        {pacing.isPending ? (
          <PageSpinner label="Loading the pacing" />
        ) : pacing.isError ? (
          <Alert variant="danger">Could not load the pacing</Alert>
        ) : (
          <PacingForm pacing={pacing.data} />
        )}
      </Card.Body>
    </Card>
  );
}

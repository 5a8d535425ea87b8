import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  getListExperimentsQueryKey,
  useCheckExperimentSampleSize,
  useCreateExperiment,
  useListExperimentMailings,
} from '@/api/gen';
import type { ExperimentInput } from '@/api/gen/model';

const KINDS = ['subject', 'sender', 'preview', 'body', 'ask'];
const METRICS: [string, string][] = [
  ['open_rate', 'Open rate'],
  ['click_rate', 'Click rate'],
  ['response_rate', 'Response rate'],
  ['rpm', 'RPM'],
];

/** A new experiment on a mailing with two or more variants; the sample-size check runs before it is saved. */
export function ExperimentCreateForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mailings = useListExperimentMailings({ query: { meta: { errorMessage: 'Could not load the mailings' } } });
  const [input, setInput] = useState<ExperimentInput>({
    name: '',
    kind: 'subject',
    mailingId: 0,
    testFraction: 0.2,
    metric: 'open_rate',
    waitHours: 4,
    autoSend: true,
    baselineRate: 0.2,
    expectedLift: 0.1,
  });
  const [error, setError] = useState<string | null>(null);
  const check = useCheckExperimentSampleSize();
  const create = useCreateExperiment({
    mutation: {
      onSuccess: async (saved) => {
        await queryClient.invalidateQueries({ queryKey: getListExperimentsQueryKey() });
        await navigate(`/experiments?id=${saved.id}`);
      },
      onError: (e: unknown) => setError((e as { message?: string }).message ?? 'Could not save the experiment'),
    },
  });
  const set = (patch: Partial<ExperimentInput>) => setInput((i) => ({ ...i, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    create.mutate({ data: input });
  };
  const runCheck = () =>
    check.mutate({
      data: {
        mailingId: input.mailingId,
        testFraction: input.testFraction,
        baselineRate: input.baselineRate,
        expectedLift: input.expectedLift,
      },
    });
  return (
    <Form onSubmit={submit} className="border rounded p-3 mt-4" aria-label="New experiment">
      <h2 className="h5">New experiment</h2>
      {error && <Alert variant="danger">{error}</Alert>}
      <div className="row g-2">
        <Form.Group className="col-md-4" controlId="experiment-name">
          <Form.Label>Name</Form.Label>
          <Form.Control required maxLength={200} value={input.name} onChange={(e) => set({ name: e.target.value })} />
        </Form.Group>
        <Form.Group className="col-md-4" controlId="experiment-mailing">
          <Form.Label>Mailing</Form.Label>
          <Form.Select required value={input.mailingId || ''} onChange={(e) => set({ mailingId: Number(e.target.value) })}>
            <option value="">Choose a mailing with variants</option>
            {(mailings.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.variants} variants)
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-md-2" controlId="experiment-kind">
          <Form.Label>Tests</Form.Label>
          <Form.Select value={input.kind} onChange={(e) => set({ kind: e.target.value })}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-md-2" controlId="experiment-metric">
          <Form.Label>Judged on</Form.Label>
          <Form.Select value={input.metric} onChange={(e) => set({ metric: e.target.value })}>
            {METRICS.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-md-3" controlId="experiment-fraction">
          <Form.Label>Test share of the audience (%)</Form.Label>
          <Form.Control
            type="number"
            min={1}
            max={100}
            value={Math.round(input.testFraction * 100)}
            onChange={(e) => set({ testFraction: Number(e.target.value) / 100 })}
          />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="experiment-wait">
          <Form.Label>Wait (hours)</Form.Label>
          <Form.Control type="number" min={1} value={input.waitHours} onChange={(e) => set({ waitHours: Number(e.target.value) })} />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="experiment-baseline">
          <Form.Label>Expected rate today (%)</Form.Label>
          <Form.Control
            type="number"
            step="0.01"
            min={0.01}
            value={input.baselineRate * 100}
            onChange={(e) => set({ baselineRate: Number(e.target.value) / 100 })}
          />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="experiment-lift">
          <Form.Label>Lift to detect (%)</Form.Label>
          <Form.Control
            type="number"
            min={1}
            value={Math.round(input.expectedLift * 100)}
            onChange={(e) => set({ expectedLift: Number(e.target.value) / 100 })}
          />
        </Form.Group>
      </div>
      <Form.Check
        className="mt-2"
        id="experiment-auto-send"
        label="Send the winner to the rest of the audience automatically"
        checked={input.autoSend}
        onChange={(e) => set({ autoSend: e.target.checked })}
      />
      {check.data && (
        <Alert variant={check.data.enough ? 'success' : 'warning'} className="mt-2" role="status">
          {check.data.warning ??
            `${check.data.perCell.toLocaleString()} recipients per variant; ${
              check.data.neededPerCell?.toLocaleString() ?? '—'
            } needed.`}
        </Alert>
      )}
      <div className="d-flex gap-2 mt-3">
        <Button variant="outline-secondary" onClick={runCheck} disabled={!input.mailingId}>
          Check sample size
        </Button>
        <Button type="submit" disabled={create.isPending}>
          Create experiment
        </Button>
      </div>
    </Form>
  );
}

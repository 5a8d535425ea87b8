import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import {
  getGetSegmentQueryKey,
  getListSegmentsQueryKey,
  useComputeSegment,
  useCreateSegment,
  useGetSegment,
  usePreviewSegmentCount,
  useUpdateSegment,
} from '@/api/gen';
import type { SegmentView } from '@/api/gen/model';
import { PageSpinner } from '@/components/page-spinner';
import { trackJob } from '@/lib/job-tracker';
import { notifyCrmSuccess } from '@/lib/notifications';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { emptyRule, toRule, type RuleGroup } from '../rule';
import { RuleBuilder } from './rule-builder';
import { SegmentFigures } from './segment-figures';
import { formatDateTime } from '@/lib/format';

/** How long the rule must stay unchanged before the live count asks the server. */
export const PREVIEW_DEBOUNCE_MS = 400;

/** Segment detail (`/segments/detail?id=…`; no id: a new segment). */
export function SegmentDetail() {
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '') || null;
  const segment = useGetSegment(id ?? 0, {
    query: {
      enabled: id !== null,
      // Until the Update Segment job has computed the saved rule, look again every two seconds.
      refetchInterval: (q) => {
        const s = q.state.data;
        return s && (!s.computed || s.computed < s.updated) ? 2000 : false;
      },
      meta: { errorMessage: 'Could not load the segment' },
    },
  });
  if (id !== null && segment.isPending) return <PageSpinner label="Loading the segment" />;
  return <SegmentEditor key={id ?? 'new'} segment={id !== null ? segment.data : undefined} />;
}

function SegmentEditor({ segment }: { segment?: SegmentView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(segment?.name ?? '');
  const [rule, setRule] = useState<RuleGroup>(segment ? toRule(segment.rule) : emptyRule());
  const [error, setError] = useState<string | null>(null);
  const debounced = useDebouncedValue(JSON.stringify(rule), PREVIEW_DEBOUNCE_MS);
  const preview = usePreviewSegmentCount();
  const { mutate: runPreview } = preview;
  useEffect(() => {
    runPreview({ data: { rule: JSON.parse(debounced) as unknown } });
  }, [debounced, runPreview]);
  const compute = useComputeSegment({
    mutation: { meta: { errorMessage: 'Could not start the compute' }, onSuccess: (job) => trackJob(job) },
  });
  const afterSave = async (saved: SegmentView) => {
    await queryClient.invalidateQueries({ queryKey: getListSegmentsQueryKey() });
    await queryClient.invalidateQueries({ queryKey: getGetSegmentQueryKey(saved.id) });
    notifyCrmSuccess('Segment saved');
    compute.mutate({ id: saved.id });
    await navigate(`/segments/detail?id=${saved.id}`);
  };
  const onError = (e: unknown) => setError((e as { message?: string }).message ?? 'Could not save the segment');
  const create = useCreateSegment({ mutation: { onSuccess: afterSave, onError } });
  const update = useUpdateSegment({ mutation: { onSuccess: afterSave, onError } });
  const saving = create.isPending || update.isPending;
  const save = () => {
    setError(null);
    const data = { name: name.trim(), rule };
    if (segment) update.mutate({ id: segment.id, data });
    else create.mutate({ data });
  };
  const previewError = (preview.error as { message?: string } | null)?.message;
  return (
    <>
      <h1 className="h3 mb-3">{segment ? segment.name : 'Create segment'}</h1>
      <Form.Group className="mb-3" controlId="segment-name" style={{ maxWidth: 480 }}>
        <Form.Label>Segment name</Form.Label>
        <Form.Control value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
      </Form.Group>
      {segment?.standard && (
        <Alert variant="info">A standard segment: its rule is kept by Compass; only its name can change.</Alert>
      )}
      <RuleBuilder group={rule} onChange={setRule} />
      <div className="d-flex align-items-center gap-3 my-3">
        <span aria-live="polite" data-testid="preview-count">
          {previewError
            ? `Rule error: ${previewError}`
            : preview.data
              ? `Matching contacts: ${preview.data.count.toLocaleString()}`
              : 'Counting…'}
        </span>
        <Button onClick={save} disabled={saving || name.trim() === ''}>
          Save
        </Button>
        {segment && (
          <Button variant="outline-secondary" onClick={() => compute.mutate({ id: segment.id })} disabled={compute.isPending}>
            Compute now
          </Button>
        )}
      </div>
      {error && <Alert variant="danger">{error}</Alert>}
      {segment && (
        <>
          <p className="small text-body-secondary">
            {segment.computed
              ? `Last computed ${formatDateTime(segment.computed)}`
              : 'Not computed yet: the figures appear once the Update Segment job finishes.'}
          </p>
          <SegmentFigures key={segment.computed ?? 'none'} segment={segment} />
        </>
      )}
    </>
  );
}

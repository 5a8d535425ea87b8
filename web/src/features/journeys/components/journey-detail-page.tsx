import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { useGetJourney, useGetJourneyFigures } from '@/api/gen';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { formatCount, formatDate, formatDateTime } from '@/lib/format';
import { dollars } from '../describe';
import { withPositions } from '../layout';
import { statusLabel, statusVariant } from '../status';
import type { JourneyDefinition } from '../types';
import { ConversionChart } from './conversion-chart';
import { EnrolCard } from './enrol-card';
import type { StepCounts } from './flow-nodes';
import { FlowCanvas } from './flow-canvas';
import { JourneyActions } from './journey-actions';
import { JOURNEYS_CRUMB } from './journey-edit-page';
import { useNames } from './pickers';
import { StepFiguresTable } from './step-figures-table';
import { VariantFiguresTable } from './variant-figures-table';

/** A journey: its status and actions, its figures per step and over time, the flow with counts, its versions. */
export function JourneyDetailPage({ id }: { id: number }) {
  const journey = useGetJourney(id, { query: { meta: { errorMessage: 'Could not load the journey' } } });
  const [version, setVersion] = useState<number | undefined>(undefined);
  const shown = version ?? journey.data?.version;
  const figures = useGetJourneyFigures(id, shown ? { version: shown } : undefined, {
    query: { enabled: shown !== undefined, meta: { errorMessage: 'Could not load the figures' } },
  });
  const names = useNames();
  const data = figures.data;
  const counts = useMemo(
    () => new Map<string, StepCounts>((data?.steps ?? []).map((s) => [s.step_id, { reached: s.reached, sent: s.sent }])),
    [data],
  );
  if (journey.isPending) return <PageSpinner label="Loading the journey" />;
  if (journey.isError) return <Alert variant="danger">Could not load the journey.</Alert>;
  const j = journey.data;
  const definition = withPositions(j.definition as JourneyDefinition);
  return (
    <>
      <Breadcrumbs crumbs={[JOURNEYS_CRUMB, { label: j.name }]} />
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">{j.name}</h1>
        <Badge bg={statusVariant(j.status)}>{statusLabel(j.status)}</Badge>
        <span className="text-body-secondary me-auto">Version {j.version}</span>
        <JourneyActions id={j.id} name={j.name} status={j.status} />
        {j.status !== 'archived' && (
          <Link className="btn btn-outline-primary btn-sm" to={`/journeys/${j.id}/edit`}>
            Edit
          </Link>
        )}
      </div>
      <Field
        id="journey-version"
        label="Figures of version"
        select
        value={shown ?? ''}
        onChange={(e) => setVersion(Number(e.target.value))}
        className="mb-3 col-md-3"
      >
        {j.versions.map((v) => (
          <option key={v.version} value={v.version}>
            Version {v.version} of {formatDate(v.created_at)}
          </option>
        ))}
      </Field>
      {figures.isError && <Alert variant="danger">Could not load the figures.</Alert>}
      {data && (
        <StatTiles
          label="Journey figures"
          tiles={[
            { label: 'Entered', value: formatCount(data.entered) },
            { label: 'Active', value: formatCount(data.active) },
            { label: 'Finished', value: formatCount(data.finished) },
            { label: 'Converted', value: formatCount(data.converted), hint: 'gave within the journey' },
            { label: 'Revenue', value: dollars(data.revenue_cents) },
          ]}
        />
      )}
      <FlowCanvas definition={definition} names={names} counts={counts} height={420} />
      <h2 className="h5 mt-4">Steps</h2>
      {data ? <StepFiguresTable steps={data.steps} definition={definition} /> : <PageSpinner label="Loading the figures" />}
      <p className="small text-body-secondary">
        Human opens leave out machine opens (privacy proxies, scanners). Delivered, gifts, revenue and RPM (revenue per
        1,000 e-mails delivered) are those of the step&apos;s e-mails, as on Performance.
      </p>
      {data && <VariantFiguresTable steps={data.steps} />}
      <h2 className="h5 mt-4">Conversion over time</h2>
      {data && data.weeks.length > 0 ? (
        <ConversionChart weeks={data.weeks} />
      ) : (
        <p className="text-body-secondary">Nobody has entered yet.</p>
      )}
      {j.status === 'active' && <EnrolCard id={j.id} />}
      <Card className="my-3">
        <Card.Header className="fw-semibold">Versions</Card.Header>
        <ul className="list-group list-group-flush" aria-label="Versions">
          {j.versions.map((v) => (
            <li key={v.version} className="list-group-item d-flex gap-2">
              <span className="me-auto">Version {v.version}</span>
              <span className="text-body-secondary">{formatDateTime(v.created_at)}</span>
              {v.active && <Badge bg="success">Contacts inside</Badge>}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

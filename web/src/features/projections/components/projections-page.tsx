import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { useAddInflectionEvent, useDeleteInflectionEvent, useGetProjections, useSetProjectionGoal } from '@/api/gen';
import type { ProjectionMonth } from '@/api/gen/model';
import { EChart } from '@/components/charts/echart';
import { columnsFor, DataTable } from '@/components/data-table';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { formatIsoDate } from '@/lib/date-range';
import { formatMoney } from '@/lib/money';
import { notifySuccess } from '@/lib/notifications';
import { CHANNELS, MONTHS, projectionOption, projectionTiles } from '../utils';

export function GoalCell({ month }: { month: ProjectionMonth }) {
  const [draft, setDraft] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const save = useSetProjectionGoal({
    mutation: {
      meta: { errorMessage: 'Could not save the goal' },
      onSuccess: () => {
        notifySuccess('Goal saved');
        setDraft(null);
        void queryClient.invalidateQueries();
      },
    },
  });
  const value = draft ?? month.goal ?? '';
  const commit = () => {
    if (draft === null || save.isPending) return;
    save.mutate({ data: { month: month.month, amount: value.trim() === '' ? null : value.trim() } });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    commit();
  };
  return (
    <Form
      className="d-flex gap-1"
      onSubmit={onSubmit}
      // Leaving the cell saves it, as every other field does; moving between its field and its Save button does not,
      // so one edit is one save.
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) commit();
      }}
    >
      <Form.Control
        size="sm"
        inputMode="decimal"
        aria-label={`Goal for ${MONTHS[month.month - 1]}`}
        value={value}
        onChange={(e) => setDraft(e.target.value)}
        style={{ maxWidth: '9rem' }}
      />
      {draft !== null && (
        <Button size="sm" type="submit" disabled={save.isPending}>
          Save
        </Button>
      )}
    </Form>
  );
}

const monthCol = columnsFor<ProjectionMonth>();
const monthColumns = monthCol.columns([
  monthCol.accessor('month', { header: 'Month', cell: (info) => MONTHS[info.getValue() - 1] }),
  ...CHANNELS.map((c) =>
    monthCol.display({ id: c.id, header: c.label, cell: ({ row }) => formatMoney(row.original.projection[c.id]) }),
  ),
  monthCol.display({
    id: 'projection',
    header: 'Projection',
    cell: ({ row }) => formatMoney(row.original.projection.total),
  }),
  monthCol.display({ id: 'actual', header: 'Actual', cell: ({ row }) => formatMoney(row.original.actual.total) }),
  monthCol.display({ id: 'goal', header: 'Goal', cell: ({ row }) => <GoalCell month={row.original} /> }),
]);
const MONEY_COLUMNS = [...CHANNELS.map((c) => c.id), 'projection', 'actual'];

function AddMarker() {
  const [date, setDate] = useState('');
  const [label, setLabel] = useState('');
  const [kind, setKind] = useState('event');
  const queryClient = useQueryClient();
  const add = useAddInflectionEvent({
    mutation: {
      meta: { errorMessage: 'Could not add the marker' },
      onSuccess: () => {
        notifySuccess('Marker added');
        setDate('');
        setLabel('');
        void queryClient.invalidateQueries();
      },
    },
  });
  return (
    <Form
      className="d-flex flex-wrap align-items-end gap-2"
      aria-label="Add a marker"
      onSubmit={(e) => {
        e.preventDefault();
        if (date && label.trim()) add.mutate({ data: { date, label: label.trim(), kind } });
      }}
    >
      <Form.Group controlId="marker-date">
        <Form.Label className="small mb-0">Date</Form.Label>
        <Form.Control size="sm" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      </Form.Group>
      <Form.Group controlId="marker-label">
        <Form.Label className="small mb-0">Label</Form.Label>
        <Form.Control size="sm" value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} />
      </Form.Group>
      <Form.Group controlId="marker-kind">
        <Form.Label className="small mb-0">Kind</Form.Label>
        <Form.Select size="sm" value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="event">Event</option>
          <option value="election">Election day</option>
        </Form.Select>
      </Form.Group>
      <Button size="sm" type="submit" disabled={!date || !label.trim() || add.isPending}>
        Add marker
      </Button>
    </Form>
  );
}

/** Projections: the year per month and channel against goals, with pacing and forecasts. */
export function ProjectionsPage() {
  const view = useGetProjections({ query: { meta: { errorMessage: 'Could not load the projections' } } });
  const queryClient = useQueryClient();
  const remove = useDeleteInflectionEvent({
    mutation: {
      meta: { errorMessage: 'Could not delete the marker' },
      onSuccess: () => void queryClient.invalidateQueries(),
    },
  });
  if (view.isPending) return <PageSpinner label="Loading the projections" />;
  if (view.isError) return <Alert variant="danger">Could not load the projections.</Alert>;
  const p = view.data;
  return (
    <>
      <h1 className="h3 mb-3">Projections {p.year}</h1>
      <StatTiles label="Pacing" tiles={projectionTiles(p)} />
      <Card className="mb-3">
        <Card.Body>
          <Card.Title as="h2" className="h6">
            Actual, projection and goal by month
          </Card.Title>
          <EChart label="Actual revenue by channel, projection and goal per month" option={projectionOption(p.months, p.markers)} />
        </Card.Body>
      </Card>
      <DataTable
        label="Projection by month"
        columns={monthColumns}
        data={p.months}
        numeric={MONEY_COLUMNS}
        rowHeader
        getRowId={(m) => String(m.month)}
        className=""
      />
      <p className="small text-body-secondary">
        Projection = last year’s month × recent growth ({p.growth}). Channel columns are the projection per channel.
      </p>
      <h2 className="h5 mt-4">Markers</h2>
      <ul aria-label="Markers" className="list-unstyled">
        {p.markers.map((m) => (
          <li key={`${m.date}-${m.label}`} className="d-flex align-items-center gap-2 mb-1">
            <span>
              {formatIsoDate(m.date)} — {m.label}
            </span>
            {m.id !== null && m.id !== undefined && (
              <Button size="sm" variant="link" className="p-0" onClick={() => remove.mutate({ id: m.id as number })}>
                Delete
              </Button>
            )}
          </li>
        ))}
      </ul>
      <AddMarker />
    </>
  );
}

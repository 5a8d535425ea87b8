import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import {
  getGetPlanningCalendarQueryKey,
  useCreatePlannedSend,
  useGetPlanningCalendar,
  useListPlanningSegments,
  useMakePlannedSendDraft,
  useMovePlannedMailing,
  useSetPlanningMonthGoal,
  useUpdatePlannedSend,
} from '@/api/gen';
import type { CalendarEntry, PlanningMonth } from '@/api/gen/model';
import { Field } from '@/components/form/field';
import { PageSpinner } from '@/components/page-spinner';
import { StatTiles } from '@/components/stat-tiles';
import { EmailRevenueNote } from '@/components/definition-note';
import { isoDate } from '@/lib/date-range';
import { formatMoney } from '@/lib/money';
import { notifyCrmSuccess } from '@/lib/notifications';
import { KIND_LABEL, localDay, PlanningCalendar } from './planning-calendar';

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

/** The days a calendar view shows, padded to whole weeks around the month. */
export function visibleRange(date: Date, view: 'month' | 'week'): { from: string; to: string } {
  if (view === 'week') {
    const start = new Date(date.getFullYear(), date.getMonth(), date.getDate() - date.getDay());
    return { from: isoDate(start), to: isoDate(new Date(start.getFullYear(), start.getMonth(), start.getDate() + 6)) };
  }
  const first = new Date(date.getFullYear(), date.getMonth(), 1);
  const last = new Date(date.getFullYear(), date.getMonth() + 1, 0);
  return {
    from: isoDate(new Date(first.getFullYear(), first.getMonth(), 1 - first.getDay())),
    to: isoDate(new Date(last.getFullYear(), last.getMonth(), last.getDate() + (6 - last.getDay()))),
  };
}

function MonthFigures({ month }: { month: PlanningMonth }) {
  const queryClient = useQueryClient();
  const [goal, setGoal] = useState('');
  const setMonthGoal = useSetPlanningMonthGoal({
    mutation: {
      meta: { errorMessage: 'Could not set the goal' },
      onSuccess: async () => {
        setGoal('');
        await queryClient.invalidateQueries({ queryKey: getGetPlanningCalendarQueryKey() });
        notifyCrmSuccess('Goal saved');
      },
    },
  });
  const title = new Date(`${month.month}T12:00:00`).toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
  return (
    <section aria-label={`${title} revenue`} className="mb-3">
      <h2 className="h5">{title}</h2>
      <StatTiles
        label={`${title} revenue`}
        tiles={[
          { label: 'Goal', value: month.goal ? formatMoney(month.goal) : '—' },
          { label: 'Planned', value: formatMoney(month.planned), hint: 'Revenue goals of planned sends' },
          { label: 'Actual', value: formatMoney(month.actual), hint: 'E-mail revenue of the sends of this month' },
        ]}
      />
      <EmailRevenueNote />
      <Form
        className="d-flex align-items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (AMOUNT.test(goal.trim())) setMonthGoal.mutate({ data: { month: month.month, goal: goal.trim() } });
        }}
      >
        <Form.Group controlId="month-goal">
          <Form.Label className="small mb-0">Month goal</Form.Label>
          <Form.Control size="sm" inputMode="decimal" placeholder="25000.00" value={goal} onChange={(e) => setGoal(e.target.value)} />
        </Form.Group>
        <Button size="sm" type="submit" disabled={!AMOUNT.test(goal.trim()) || setMonthGoal.isPending}>
          Set goal
        </Button>
      </Form>
    </section>
  );
}

function AddPlannedSend({ show, onHide, day }: { show: boolean; onHide: () => void; day: string }) {
  const queryClient = useQueryClient();
  const segments = useListPlanningSegments({ query: { enabled: show } });
  const [form, setForm] = useState({ sendDate: day, name: '', segmentId: '', revenueGoal: '' });
  const create = useCreatePlannedSend({
    mutation: {
      meta: { errorMessage: 'Could not add the planned send' },
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: getGetPlanningCalendarQueryKey() });
        notifyCrmSuccess('Planned send added');
        setForm({ sendDate: day, name: '', segmentId: '', revenueGoal: '' });
        onHide();
      },
    },
  });
  const valid = form.name.trim() !== '' && /^\d{4}-\d{2}-\d{2}$/.test(form.sendDate) && AMOUNT.test(form.revenueGoal.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    create.mutate({
      data: {
        sendDate: form.sendDate,
        name: form.name.trim(),
        segmentId: form.segmentId ? Number(form.segmentId) : null,
        revenueGoal: form.revenueGoal.trim(),
      },
    });
  };
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="add-planned-title">
      <Form onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id="add-planned-title">Plan a send</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-2" controlId="planned-date">
            <Form.Label>Date</Form.Label>
            <Form.Control type="date" value={form.sendDate} onChange={(e) => setForm({ ...form, sendDate: e.target.value })} />
          </Form.Group>
          <Form.Group className="mb-2" controlId="planned-name">
            <Form.Label>Name</Form.Label>
            <Form.Control value={form.name} maxLength={200} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </Form.Group>
          <Form.Group className="mb-2" controlId="planned-segment">
            <Form.Label>Segment</Form.Label>
            <Form.Select value={form.segmentId} onChange={(e) => setForm({ ...form, segmentId: e.target.value })}>
              <option value="">No segment yet</option>
              {(segments.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Field
            id="planned-goal"
            label="Revenue goal"
            className=""
            inputMode="decimal"
            placeholder="2500.00"
            value={form.revenueGoal}
            onChange={(e) => setForm({ ...form, revenueGoal: e.target.value })}
            invalid={form.revenueGoal !== '' && !AMOUNT.test(form.revenueGoal.trim())}
            error="An amount like 2500.00"
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || create.isPending}>
            Add planned send
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function EntryDetails({ entry, onHide }: { entry: CalendarEntry | null; onHide: () => void }) {
  const queryClient = useQueryClient();
  const [draftId, setDraftId] = useState<number | null>(null);
  const makeDraft = useMakePlannedSendDraft({
    mutation: {
      meta: { errorMessage: 'Could not make the draft' },
      onSuccess: async (created) => {
        setDraftId(created.id);
        await queryClient.invalidateQueries({ queryKey: getGetPlanningCalendarQueryKey() });
        notifyCrmSuccess('Draft mailing created');
      },
    },
  });
  const hide = () => {
    setDraftId(null);
    onHide();
  };
  return (
    <Modal show={entry !== null} onHide={hide} aria-labelledby="entry-title">
      {entry && (
        <>
          <Modal.Header closeButton>
            <Modal.Title id="entry-title">{entry.name}</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <dl className="row mb-0">
              <dt className="col-4">Status</dt>
              <dd className="col-8">{KIND_LABEL[entry.kind] ?? entry.kind}</dd>
              <dt className="col-4">Day</dt>
              <dd className="col-8">{new Date(`${entry.day}T12:00:00`).toLocaleDateString()}</dd>
              <dt className="col-4">Segment</dt>
              <dd className="col-8">{entry.segmentName ?? '—'}</dd>
              <dt className="col-4">Revenue goal</dt>
              <dd className="col-8">{entry.revenueGoal ? formatMoney(entry.revenueGoal) : '—'}</dd>
            </dl>
            {draftId !== null && (
              <Alert variant="success" className="mt-3 mb-0">
                Draft mailing created. <Link to={`/crm-mailing-detail/${draftId}`}>Open the draft</Link>
              </Alert>
            )}
          </Modal.Body>
          <Modal.Footer>
            {entry.kind === 'planned' && draftId === null && (
              <Button onClick={() => makeDraft.mutate({ id: entry.id })} disabled={makeDraft.isPending}>
                Make draft mailing
              </Button>
            )}
            {entry.kind !== 'planned' && (
              <Link className="btn btn-outline-primary" to={`/crm-mailing-detail/${entry.id}`}>
                Open mailing
              </Link>
            )}
            <Button variant="secondary" onClick={hide}>
              Close
            </Button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}

/** Email › Planning: the calendar of sends with each month's goal, planned and actual revenue. */
export function PlanningPage() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const asked = params.get('date') ?? '';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(asked) ? localDay(asked) : new Date();
  const view = params.get('view') === 'week' ? 'week' : 'month';
  const show = (next: { date?: Date; view?: 'month' | 'week' }) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      if (next.date) out.set('date', isoDate(next.date));
      if (next.view) out.set('view', next.view);
      return out;
    });
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<CalendarEntry | null>(null);
  const range = visibleRange(date, view);
  const calendar = useGetPlanningCalendar(range, { query: { meta: { errorMessage: 'Could not load the calendar' } } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: getGetPlanningCalendarQueryKey() });
  const moveMailing = useMovePlannedMailing({
    mutation: { meta: { errorMessage: 'Could not move the send' }, onSettled: refresh, onSuccess: () => notifyCrmSuccess('Send moved') },
  });
  const movePlanned = useUpdatePlannedSend({
    mutation: { meta: { errorMessage: 'Could not move the send' }, onSettled: refresh, onSuccess: () => notifyCrmSuccess('Send moved') },
  });
  const onMove = (entry: CalendarEntry, day: string) => {
    if (entry.kind === 'planned') {
      movePlanned.mutate({
        id: entry.id,
        data: { sendDate: day, name: entry.name, segmentId: entry.segmentId ?? null, revenueGoal: entry.revenueGoal ?? '0' },
      });
    } else {
      moveMailing.mutate({ id: entry.id, data: { day } });
    }
  };
  const focusMonth = isoDate(new Date(date.getFullYear(), date.getMonth(), 1));
  const month = calendar.data?.months.find((m) => m.month === focusMonth);
  return (
    <>
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h3 mb-0">Planning</h1>
        <Button onClick={() => setAdding(true)}>Plan a send</Button>
      </div>
      {calendar.isError && <Alert variant="danger">Could not load the calendar.</Alert>}
      {calendar.isPending && <PageSpinner label="Loading the calendar" />}
      {month && <MonthFigures key={month.month} month={month} />}
      <PlanningCalendar
        entries={calendar.data?.entries ?? []}
        marks={calendar.data?.marks ?? []}
        date={date}
        view={view}
        onNavigate={(d) => show({ date: d })}
        onView={(v) => show({ view: v })}
        onMove={onMove}
        onSelect={setSelected}
      />
      <AddPlannedSend key={String(adding)} show={adding} onHide={() => setAdding(false)} day={isoDate(date)} />
      <EntryDetails entry={selected} onHide={() => setSelected(null)} />
    </>
  );
}

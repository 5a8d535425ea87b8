import { createContext, useContext, useMemo } from 'react';
import { Calendar, dayjsLocalizer, type View } from 'react-big-calendar';
import * as dragAndDrop from 'react-big-calendar/lib/addons/dragAndDrop';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import dayjs from 'dayjs';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import type { CalendarEntry, DayMark } from '@/api/gen/model';
import { isoDate } from '@/lib/date-range';

const localizer = dayjsLocalizer(dayjs);

/** A calendar event: one entry on its client day, all day long. */
export interface PlanEvent {
  key: string;
  title: string;
  start: Date;
  end: Date;
  allDay: true;
  entry: CalendarEntry;
}

// The addon is CommonJS: the production bundle hands its whole `exports` over as the default, the test runner its
// `exports.default`. Take the function either way.
type WithDragAndDrop = typeof dragAndDrop.default;
const dndModule = dragAndDrop as unknown as { default: WithDragAndDrop | { default: WithDragAndDrop } };
const withDragAndDrop: WithDragAndDrop =
  typeof dndModule.default === 'function' ? dndModule.default : dndModule.default.default;
const DnDCalendar = withDragAndDrop<PlanEvent>(Calendar);

/** The marked days of the calendar on screen, by ISO day. */
const MarksContext = createContext<Map<string, string[]>>(new Map());

/** A month cell's header: the marks of the day, then its number. */
function DateHeader({ date, label }: { date: Date; label: string }) {
  const kinds = useContext(MarksContext).get(isoDate(date)) ?? [];
  return (
    <span>
      {kinds.map((k) => (
        <span key={k} className="badge text-bg-danger me-1" data-mark={k}>
          {MARK_LABEL[k] ?? k}
        </span>
      ))}
      {label}
    </span>
  );
}

/** An event's face, naming its kind for tests and assistive technology. */
function EventFace({ event }: { event: PlanEvent }) {
  return (
    <span data-kind={event.entry.kind} data-testid={`plan-event-${event.key}`}>
      {event.title}
    </span>
  );
}

/** An ISO day (YYYY-MM-DD) as a local date at midnight, never shifted through UTC. */
export function localDay(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
}

export const KIND_LABEL: Record<string, string> = {
  sent: 'Sent',
  scheduled: 'Scheduled',
  draft: 'Draft',
  planned: 'Planned',
};

export const MARK_LABEL: Record<string, string> = {
  month_end: 'Month end',
  quarter_end: 'Quarter end',
  election_day: 'Election day',
};

const KIND_CLASS: Record<string, string> = {
  sent: 'bg-secondary',
  scheduled: 'bg-primary',
  draft: 'bg-warning text-dark',
  planned: 'bg-info text-dark',
};

/** Only sends not yet sent can move. */
export const canMove = (entry: CalendarEntry) => entry.kind !== 'sent';

export function toEvents(entries: CalendarEntry[]): PlanEvent[] {
  return entries.map((entry) => {
    const day = localDay(entry.day);
    return {
      key: `${entry.kind === 'planned' ? 'p' : 'm'}${entry.id}`,
      title: `${KIND_LABEL[entry.kind] ?? entry.kind}: ${entry.name}`,
      start: day,
      end: day,
      allDay: true,
      entry,
    };
  });
}

export interface PlanningCalendarProps {
  entries: CalendarEntry[];
  marks: DayMark[];
  date: Date;
  view: 'month' | 'week';
  onNavigate: (date: Date) => void;
  onView: (view: 'month' | 'week') => void;
  /** A send dragged to another day (YYYY-MM-DD). Sent ones never reach here. */
  onMove: (entry: CalendarEntry, day: string) => void;
  onSelect: (entry: CalendarEntry) => void;
}

/** The month and week calendar of sends: sent, scheduled, drafts and planned sends, with marked days. */
export function PlanningCalendar({ entries, marks, date, view, onNavigate, onView, onMove, onSelect }: PlanningCalendarProps) {
  const events = useMemo(() => toEvents(entries), [entries]);
  const marksByDay = useMemo(() => {
    const byDay = new Map<string, string[]>();
    for (const m of marks) byDay.set(m.day, [...(byDay.get(m.day) ?? []), m.kind]);
    return byDay;
  }, [marks]);
  const move = ({ event, start }: EventInteractionArgs<PlanEvent>) => {
    const day = isoDate(new Date(start));
    if (!canMove(event.entry) || day === event.entry.day) return;
    onMove(event.entry, day);
  };
  return (
    <MarksContext.Provider value={marksByDay}>
    <DnDCalendar
      localizer={localizer}
      events={events}
      date={date}
      view={view}
      views={['month', 'week']}
      onNavigate={onNavigate}
      onView={(v: View) => onView(v === 'week' ? 'week' : 'month')}
      style={{ height: 720 }}
      popup
      showAllEvents
      tooltipAccessor={(e) => e.title}
      draggableAccessor={(e) => canMove(e.entry)}
      resizable={false}
      onEventDrop={move}
      onSelectEvent={(e) => onSelect(e.entry)}
      eventPropGetter={(e) => ({ className: `${KIND_CLASS[e.entry.kind] ?? ''} border-0` })}
      dayPropGetter={(day) => {
        const kinds = marksByDay.get(isoDate(day));
        return kinds ? { className: `planning-marked ${kinds.map((k) => `planning-${k}`).join(' ')}`, style: { backgroundColor: 'rgba(220, 53, 69, 0.08)' } } : {};
      }}
      components={{ event: EventFace, month: { dateHeader: DateHeader } }}
    />
    </MarksContext.Provider>
  );
}

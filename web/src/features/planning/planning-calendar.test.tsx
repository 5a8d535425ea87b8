import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CalendarEntry, DayMark } from '@/api/gen/model';
import { visibleRange } from './planning-page';
import { canMove, localDay, PlanningCalendar, toEvents } from './planning-calendar';

const entry = (kind: string, id: number, name: string, day: string): CalendarEntry => ({
  kind,
  id,
  name,
  day,
  sendTime: null,
  segmentId: null,
  segmentName: null,
  plannedSendId: kind === 'planned' ? id : null,
  revenueGoal: kind === 'planned' ? '1500.00' : null,
});

const ENTRIES = [
  entry('sent', 1, 'March appeal', '2030-03-04'),
  entry('scheduled', 2, 'Deadline push', '2030-03-29'),
  entry('draft', 3, 'Pi day', '2030-03-14'),
  entry('planned', 9, 'Quarter close', '2030-03-31'),
];
const MARKS: DayMark[] = [
  { day: '2030-03-05', kind: 'election_day' },
  { day: '2030-03-31', kind: 'month_end' },
  { day: '2030-03-31', kind: 'quarter_end' },
];

// The calendar's drag selection asks where the pointer is; jsdom has no layout.
beforeAll(() => {
  document.elementFromPoint = () => null;
});

describe('PlanningCalendar', () => {
  it('shows every send with its status and marks month end, quarter end and election day', () => {
    render(
      <PlanningCalendar
        entries={ENTRIES}
        marks={MARKS}
        date={new Date(2030, 2, 15)}
        view="month"
        onNavigate={() => {}}
        onView={() => {}}
        onMove={() => {}}
        onSelect={() => {}}
      />,
    );
    expect(screen.getByText('Sent: March appeal')).toHaveAttribute('data-kind', 'sent');
    expect(screen.getByText('Scheduled: Deadline push')).toHaveAttribute('data-kind', 'scheduled');
    expect(screen.getByText('Draft: Pi day')).toHaveAttribute('data-kind', 'draft');
    expect(screen.getByText('Planned: Quarter close')).toHaveAttribute('data-kind', 'planned');
    expect(screen.getByText('Election day')).toHaveAttribute('data-mark', 'election_day');
    expect(screen.getByText('Month end')).toHaveAttribute('data-mark', 'month_end');
    expect(screen.getByText('Quarter end')).toHaveAttribute('data-mark', 'quarter_end');
  });

  it('opens a send when it is clicked', async () => {
    const onSelect = vi.fn();
    render(
      <PlanningCalendar
        entries={ENTRIES}
        marks={[]}
        date={new Date(2030, 2, 15)}
        view="month"
        onNavigate={() => {}}
        onView={() => {}}
        onMove={() => {}}
        onSelect={onSelect}
      />,
    );
    await userEvent.click(screen.getByText('Planned: Quarter close'));
    expect(onSelect).toHaveBeenCalledWith(ENTRIES[3]);
  });

  it('lets drafts, scheduled and planned sends move but never a sent one', () => {
    expect(ENTRIES.map(canMove)).toEqual([false, true, true, true]);
  });

  it('places an entry on its own day whatever the browser zone', () => {
    const [event] = toEvents([ENTRIES[2]!]);
    expect(event!.start).toEqual(new Date(2030, 2, 14));
    expect(event!.allDay).toBe(true);
    expect(localDay('2030-12-31')).toEqual(new Date(2030, 11, 31));
  });

  it('asks for whole weeks around the month, or the week shown', () => {
    // March 2030 starts on a Friday and ends on a Sunday.
    expect(visibleRange(new Date(2030, 2, 15), 'month')).toEqual({ from: '2030-02-24', to: '2030-04-06' });
    expect(visibleRange(new Date(2030, 2, 14), 'week')).toEqual({ from: '2030-03-10', to: '2030-03-16' });
  });
});

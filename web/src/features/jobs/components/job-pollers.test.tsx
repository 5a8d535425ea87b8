import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { getTrackedJobs, resetTrackedJobs, trackJob } from '@/lib/job-tracker';
import { clearSnacks } from '@/lib/notifications';
import { sent, server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';
import { JobBanners } from './job-banners';
import { JobFinishedDialog } from './job-finished-dialog';
import { JobPollers } from './job-pollers';

const job = (overrides: Partial<Job> = {}): Job => ({
  id: 5,
  _id: 5,
  label: 'Recount lists',
  command: 'recount-lists',
  status: 'queued',
  progress: 0,
  completed: false,
  is_active: true,
  created: new Date().toISOString(),
  updated: new Date().toISOString(),
  user: { id: 1 },
  ...overrides,
});

/** Answers each poll with the next item (a Job, or an error status). */
function answerPolls(answers: (Job | number)[]) {
  let i = 0;
  server.use(
    http.all('*', () => {
      const answer = answers[Math.min(i++, answers.length - 1)];
      return typeof answer === 'number'
        ? HttpResponse.json({ message: 'Job not found' }, { status: answer })
        : HttpResponse.json(answer);
    }),
  );
}

// Captured before the timers are faked.
const realSetTimeout = globalThis.setTimeout;
const realTick = () => new Promise<void>((resolve) => realSetTimeout(resolve, 1));

/** Lets fake time pass, then lets the responses it released settle (body reads need real ticks). */
async function elapse(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await realTick();
      // A zero-delay timeout (TanStack Query's notify batch) is due 1 ms later under fake timers.
      await vi.advanceTimersByTimeAsync(1);
    });
  }
}

function renderJobs() {
  return renderWithProviders(
    <>
      <JobBanners />
      <JobPollers />
      <JobFinishedDialog />
    </>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(() => {
  act(() => {
    resetTrackedJobs();
    clearSnacks();
  });
  vi.useRealTimers();
});

describe('job polling', () => {
  it('polls every second, shows progress, and opens the finished dialog on completion', async () => {
    answerPolls([
      job({ status: 'running', progress: 40 }),
      job({ status: 'running', progress: 80 }),
      job({
        status: 'done',
        progress: 100,
        completed: true,
        success: true,
        result: { message: 'Recounted 3 lists', link: '/crm-lists', details: null },
      }),
    ]);
    renderJobs();
    act(() => trackJob(job()));
    await elapse(0);

    expect(sent()).toHaveLength(1);
    expect(sent()[0].url).toBe('/api/jobs/5');
    expect(screen.getByText('Recount lists')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(localStorage.getItem('pollJobs')).not.toBeNull();

    await elapse(1000);
    expect(sent()).toHaveLength(2);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80');

    await elapse(1000);
    expect(sent()).toHaveLength(3);
    const dialog = screen.getByRole('dialog', { name: 'Recount lists finished' });
    expect(dialog).toHaveTextContent('Recounted 3 lists');
    expect(screen.getByRole('link', { name: 'View Result' })).toHaveAttribute('href', '/crm-lists');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    // Completed: polling has stopped.
    await elapse(5000);
    expect(sent()).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await elapse(500);
    expect(getTrackedJobs()).toEqual([]);
    expect(localStorage.getItem('pollJobs')).toBeNull();
  });

  it('says a job waits for a worker when none is running, and shows progress once one runs it', async () => {
    answerPolls([job({ waitingForWorker: true }), job({ status: 'running', progress: 30 })]);
    renderJobs();
    act(() => trackJob(job()));
    await elapse(0);
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for a worker (none is running)');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    await elapse(1000);
    expect(screen.queryByText('Waiting for a worker (none is running)')).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '30');
  });

  it('stops polling and drops the job when a poll fails', async () => {
    answerPolls([job({ status: 'running', progress: 10 }), 500]);
    renderJobs();
    act(() => trackJob(job()));
    await elapse(0);
    expect(screen.getByText('Recount lists')).toBeInTheDocument();

    await elapse(1000);
    expect(sent()).toHaveLength(2);
    expect(getTrackedJobs()).toEqual([]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await elapse(5000);
    expect(sent()).toHaveLength(2);
  });

  it('a failed job shows its error with Report Issue, and its banner can be dismissed', async () => {
    answerPolls([job({ status: 'done', completed: true, success: false, error: 'Redis is down' })]);
    renderJobs();
    act(() => trackJob(job({ status: 'running', progress: 50 })));
    await elapse(0);

    const dialog = screen.getByRole('dialog', { name: 'Recount lists failed' });
    expect(dialog).toHaveTextContent('Redis is down');
    expect(screen.getByRole('link', { name: 'Report Issue' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await elapse(500);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText(/Redis is down/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss Recount lists' }));
    await elapse(500);
    expect(screen.queryByText(/Redis is down/)).not.toBeInTheDocument();
    expect(getTrackedJobs()).toEqual([]);
  });
});

import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/api/gen/model';
import { CrmListsTable } from '@/features/crm-lists/components/crm-lists-table';
import { JobPollers } from '@/features/jobs/components/job-pollers';
import { resetTrackedJobs, trackJob } from '@/lib/job-tracker';
import { server } from '@/test/msw';
import { renderWithProviders } from '@/test/utils';

// The app composes features: a finished job refreshes what another feature shows. The test lives here because
// one feature never imports another.

const job = (overrides: Partial<Job> = {}): Job => ({
  id: 5,
  _id: 5,
  label: 'CRM List Upload',
  command: 'crm-list-upload',
  status: 'queued',
  progress: 0,
  completed: false,
  is_active: true,
  created: new Date().toISOString(),
  updated: new Date().toISOString(),
  user: { id: 1 },
  ...overrides,
});

const realSetTimeout = globalThis.setTimeout;
const realTick = () => new Promise<void>((resolve) => realSetTimeout(resolve, 1));

async function elapse(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await realTick();
      await vi.advanceTimersByTimeAsync(1);
    });
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(() => {
  act(() => resetTrackedJobs());
  vi.useRealTimers();
});

describe('a finished job', () => {
  it('refreshes what the job changed when it ends: the lists table shows the new count (issue 17, bug 1)', async () => {
    let finished = false;
    server.use(
      http.get('/api/jobs/5', () =>
        HttpResponse.json(
          finished
            ? job({ status: 'done', progress: 100, completed: true, success: true })
            : job({ status: 'running', progress: 50 }),
        ),
      ),
      http.get('/api/crm-list', () =>
        HttpResponse.json([
          { id: 7, name: 'Uploaded', count: finished ? 12345 : 0, created: new Date().toISOString(), kind: 'upload', originCodes: [] },
        ]),
      ),
    );
    renderWithProviders(
      <>
        <CrmListsTable />
        <JobPollers />
      </>,
    );
    act(() => trackJob(job()));
    await elapse(0);
    const row = screen.getByRole('link', { name: 'Uploaded' }).closest('tr')!;
    expect(row).toHaveTextContent('0');
    finished = true;
    await elapse(1000);
    await elapse(0);
    expect(screen.getByRole('link', { name: 'Uploaded' }).closest('tr')!).toHaveTextContent((12345).toLocaleString());
  });
});

import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import {
  getListReportSchedulesQueryKey,
  useCreateReportSchedule,
  useDeleteReportSchedule,
  useListReportRecipients,
  useListReportSchedules,
} from '@/api/gen';
import type { ReportFormat, ReportFrequency, ReportInfo, ReportSchedule } from '@/api/gen/model';
import { formatDateTime } from '@/lib/format';
import { notifySuccess } from '@/lib/notifications';
import { forgetDeleted } from '@/lib/forget-deleted';
import { columnsFor, DataTable } from '@/components/data-table';

/** Scheduled reports: e-mail a report weekly (last week) or monthly (last month) to users of this client. */
const col = columnsFor<ReportSchedule>();

export function ReportSchedules({ reports }: { reports: ReportInfo[] }) {
  const queryClient = useQueryClient();
  const schedules = useListReportSchedules({ query: { meta: { errorMessage: 'Could not load the schedules' } } });
  const people = useListReportRecipients({ query: { meta: { errorMessage: 'Could not load the users' } } });
  const [kind, setKind] = useState('');
  const [frequency, setFrequency] = useState<ReportFrequency>('weekly');
  const [format, setFormat] = useState<ReportFormat>('xlsx');
  const [chosen, setChosen] = useState<string[]>([]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListReportSchedulesQueryKey() });
  const create = useCreateReportSchedule({
    mutation: {
      meta: { errorMessage: 'Could not schedule the report' },
      onSuccess: async () => {
        notifySuccess('Report scheduled');
        setChosen([]);
        await refresh();
      },
    },
  });
  const remove = useDeleteReportSchedule({
    mutation: {
      meta: { errorMessage: 'Could not delete the schedule' },
      onSuccess: () => forgetDeleted(queryClient, { lists: [getListReportSchedulesQueryKey()] }),
    },
  });
  const columns = col.columns([
    col.accessor('title', { header: 'Report' }),
    col.accessor('frequency', { header: 'Every', cell: (info) => (info.getValue() === 'weekly' ? 'Week' : 'Month') }),
    col.accessor('format', { header: 'File', cell: (info) => info.getValue().toUpperCase() }),
    col.accessor('recipients', { header: 'To', cell: (info) => info.getValue().join(', ') }),
    col.accessor('nextRun', { header: 'Next run', cell: (info) => formatDateTime(info.getValue()) }),
    col.display({
      id: 'actions',
      header: '',
      cell: ({ row: { original: s } }) => (
        <Button size="sm" variant="outline-danger" disabled={remove.isPending} onClick={() => remove.mutate({ id: s.id })}>
          Delete
        </Button>
      ),
    }),
  ]);
  const report = kind || reports[0]?.key || '';
  return (
    <section className="mt-4" aria-labelledby="schedules-heading">
      <h2 id="schedules-heading" className="h5">
        Scheduled reports
      </h2>
      {schedules.isError && <Alert variant="danger">Could not load the schedules.</Alert>}
      {schedules.data && schedules.data.length > 0 && (
        <DataTable
          label="Scheduled reports"
          columns={columns}
          data={schedules.data}
          cellClassName={{ actions: 'text-end' }}
          striped={false}
        />
      )}
      <Form
        className="row g-2 align-items-end"
        aria-label="Schedule a report"
        onSubmit={(e) => {
          e.preventDefault();
          if (report && chosen.length > 0)
            create.mutate({ data: { kind: report, frequency, format, recipients: chosen } });
        }}
      >
        <Form.Group className="col-md-3" controlId="schedule-report">
          <Form.Label className="small mb-0">Report</Form.Label>
          <Form.Select size="sm" value={report} onChange={(e) => setKind(e.target.value)}>
            {reports.map((r) => (
              <option key={r.key} value={r.key}>
                {r.title}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-md-2" controlId="schedule-frequency">
          <Form.Label className="small mb-0">Every</Form.Label>
          <Form.Select
            size="sm"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as ReportFrequency)}
          >
            <option value="weekly">Week (Monday, last week)</option>
            <option value="monthly">Month (the 1st, last month)</option>
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-md-2" controlId="schedule-format">
          <Form.Label className="small mb-0">File</Form.Label>
          <Form.Select size="sm" value={format} onChange={(e) => setFormat(e.target.value as ReportFormat)}>
            <option value="xlsx">XLSX</option>
            <option value="csv">CSV</option>
          </Form.Select>
        </Form.Group>
        <fieldset className="col-md-3">
          <legend className="small mb-0">To</legend>
          <div style={{ maxHeight: '8rem', overflowY: 'auto' }}>
            {(people.data ?? []).map((p) => (
              <Form.Check
                key={p.email}
                id={`recipient-${p.email}`}
                label={p.name ? `${p.name} (${p.email})` : p.email}
                checked={chosen.includes(p.email)}
                onChange={(e) =>
                  setChosen(e.target.checked ? [...chosen, p.email] : chosen.filter((x) => x !== p.email))
                }
              />
            ))}
          </div>
        </fieldset>
        <div className="col-md-2">
          <Button type="submit" size="sm" disabled={create.isPending || chosen.length === 0 || !report}>
            Schedule
          </Button>
        </div>
      </Form>
    </section>
  );
}

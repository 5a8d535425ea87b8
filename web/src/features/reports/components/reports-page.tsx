import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import { useSearchParams } from 'react-router';
import { useBuildReport, useGetReport, useListReports } from '@/api/gen';
import type { ReportTable } from '@/api/gen/model';
import { columnsFor, DataTable } from '@/components/data-table';
import { DateRangePicker } from '@/components/date-range-picker';
import { EmptyState } from '@/components/empty-state';
import { PageSpinner } from '@/components/page-spinner';
import { formatIsoDate, rangeFromParams, type DateRange } from '@/lib/date-range';
import { formatCount } from '@/lib/format';
import { trackJob } from '@/lib/job-tracker';
import { notifyError, notifySuccess } from '@/lib/notifications';
import { downloadFile } from '@/lib/download';
import { formatCell } from '../utils';
import { ReportSchedules } from './report-schedules';

/** A report's rows are its cells in column order, as text. */
const col = columnsFor<string[]>();

type Format = 'csv' | 'xlsx';

const query = (range: DateRange) => new URLSearchParams({ from: range.from, to: range.to }).toString();

/** The report's rows, its downloads (or, for a large one, a job that builds the file). */
function ReportView({ report, range }: { report: ReportTable; range: DateRange }) {
  const [busy, setBusy] = useState(false);
  const large = report.totalRows > report.directLimit;
  const build = useBuildReport({
    mutation: {
      meta: { errorMessage: 'Could not start the report' },
      onSuccess: (job) => {
        notifySuccess('Building the report');
        trackJob(job);
      },
    },
  });
  const download = async (format: Format) => {
    if (large) {
      build.mutate({ kind: report.key, data: { from: range.from, to: range.to, format } });
      return;
    }
    setBusy(true);
    try {
      await downloadFile(
        `/api/reports/${report.key}/file?format=${format}&${query(range)}`,
        `${report.key}-${range.from}-${range.to}.${format}`,
        { nameFromServer: true },
      );
    } catch (e) {
      notifyError(e, 'Could not download the report');
    } finally {
      setBusy(false);
    }
  };
  const numeric = (kind: string) => kind === 'money' || kind === 'integer' || kind === 'rate' || kind === 'ratio';
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <span className="me-auto small text-body-secondary" data-testid="report-count">
          {formatCount(report.totalRows)} rows
          {report.rows.length < report.totalRows && `, the first ${formatCount(report.rows.length)} shown`}
        </span>
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button
            key={format}
            size="sm"
            variant="outline-primary"
            disabled={busy || build.isPending}
            onClick={() => void download(format)}
          >
            {large ? `Build ${format.toUpperCase()}` : `Download ${format.toUpperCase()}`}
          </Button>
        ))}
      </div>
      {report.rows.length === 0 ? (
        <EmptyState>No rows for this range.</EmptyState>
      ) : (
        <DataTable
          key={report.key}
          label={report.title}
          columns={report.columns.map((c, j) =>
            col.accessor((row) => row[j] ?? '', {
              id: c.key,
              header: c.label,
              cell: (info) => formatCell(c.kind, info.getValue()),
            }),
          )}
          data={report.rows}
          numeric={report.columns.filter((c) => numeric(c.kind)).map((c) => c.key)}
          columnChoiceKey={`report-${report.key}`}
          stickyFirst
          hover
          className=""
        />
      )}
    </>
  );
}

/** A file a "Build Report" job made, offered from the job's result link (`/reports?file=…`). */
function BuiltFile({ id, onDone }: { id: string; onDone: () => void }) {
  return (
    <Alert variant="success" dismissible onClose={onDone}>
      Your report file is ready.{' '}
      <Button
        size="sm"
        variant="success"
        onClick={() =>
          void downloadFile(`/api/report-files/${encodeURIComponent(id)}`, `report-${id}`, {
            nameFromServer: true,
          }).catch((e: unknown) => notifyError(e, 'Could not download the report'))
        }
      >
        Download the file
      </Button>
    </Alert>
  );
}

/** Reports: the built-in reports over a date range, their files, and reports e-mailed on a schedule. */
export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const range = rangeFromParams(params);
  const catalog = useListReports({ query: { meta: { errorMessage: 'Could not load the reports' } } });
  const key = params.get('report') ?? catalog.data?.[0]?.key ?? '';
  const selected = catalog.data?.find((r) => r.key === key);
  const report = useGetReport(key, range, {
    query: { enabled: selected !== undefined, meta: { errorMessage: 'Could not load the report' } },
  });
  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) out.delete(k);
        else out.set(k, v);
      }
      return out;
    });
  const file = params.get('file');
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">Reports</h1>
        <DateRangePicker value={range} onChange={(r) => update({ from: r.from, to: r.to })} />
      </div>
      {file && <BuiltFile id={file} onDone={() => update({ file: null })} />}
      {catalog.isPending ? (
        <PageSpinner label="Loading the reports" />
      ) : catalog.isError ? (
        <Alert variant="danger">Could not load the reports.</Alert>
      ) : (
        <div className="row g-3">
          <div className="col-lg-3">
            <ListGroup aria-label="Reports">
              {catalog.data.map((r) => (
                <ListGroup.Item key={r.key} action active={r.key === key} onClick={() => update({ report: r.key })}>
                  {r.title}
                </ListGroup.Item>
              ))}
            </ListGroup>
          </div>
          <div className="col-lg-9">
            {selected && (
              <>
                <h2 className="h5 mb-1">{selected.title}</h2>
                <p className="small text-body-secondary mb-2">
                  {selected.description}{' '}
                  {selected.asOf
                    ? `As of ${formatIsoDate(range.to)}.`
                    : `${formatIsoDate(range.from)} to ${formatIsoDate(range.to)}.`}
                </p>
              </>
            )}
            {report.isPending ? (
              <PageSpinner label="Loading the report" />
            ) : report.isError ? (
              <Alert variant="danger">Could not load the report.</Alert>
            ) : (
              <ReportView report={report.data} range={range} />
            )}
          </div>
        </div>
      )}
      <ReportSchedules reports={catalog.data ?? []} />
    </>
  );
}

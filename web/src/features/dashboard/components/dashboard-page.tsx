import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { useGetDashboard } from '@/api/gen';
import type { Dashboard } from '@/api/gen/model';
import { EmailRevenueNote } from '@/components/definition-note';
import { PageSpinner } from '@/components/page-spinner';
import { formatDate, formatDateTime, formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { mailingLink, pacingHint, PERIOD_LABELS, periodLink, signed, sourceCodesLink } from '../utils';
import { StateMap } from './state-map';
import { columnsFor, DataTable } from '@/components/data-table';

/** A card whose title links to the page it summarises. */
const mailingCol = columnsFor<NonNullable<Dashboard['lastMailings']>[number]>();
const mailingColumns = mailingCol.columns([
  mailingCol.accessor('name', {
    header: 'Mailing',
    cell: (info) => <Link to={mailingLink(info.row.original.id)}>{info.getValue()}</Link>,
  }),
  mailingCol.accessor('sent', { header: 'Sent', cell: (info) => formatDate(info.getValue()) }),
  mailingCol.accessor('delivered', { header: 'Delivered', cell: (info) => formatCount(info.getValue()) }),
  mailingCol.accessor('revenue', { header: 'Revenue', cell: (info) => formatMoney(info.getValue()) }),
  mailingCol.accessor('rpm', { header: 'RPM', cell: (info) => formatMoney(info.getValue()) }),
]);

const codeCol = columnsFor<NonNullable<Dashboard['topSourceCodes']>[number]>();
const codeColumns = codeCol.columns([
  codeCol.accessor('code', { header: 'Source code' }),
  codeCol.accessor('gifts', { header: 'Gifts', cell: (info) => `${formatCount(info.getValue())} gifts` }),
  codeCol.accessor('net', { header: 'Net', cell: (info) => formatMoney(info.getValue()) }),
]);

function Tile({ title, to, children, testId }: { title: string; to: string; children: ReactNode; testId: string }) {
  return (
    <Card className="h-100" data-testid={testId}>
      <Card.Body className="py-2 px-3">
        <Link to={to} className="small text-body-secondary text-decoration-none">
          {title}
        </Link>
        {children}
      </Card.Body>
    </Card>
  );
}

function Figure({ value, hint }: { value: string; hint?: string }) {
  return (
    <>
      <div className="fs-5 fw-semibold figure-value">{value}</div>
      {hint && <div className="small text-body-secondary">{hint}</div>}
    </>
  );
}

function RevenueTiles({ data }: { data: NonNullable<Dashboard['revenue']> }) {
  const month = data.periods.find((p) => p.key === 'month');
  return (
    <div className="row row-cols-2 row-cols-md-3 row-cols-xl-6 g-2 mb-3">
      {data.periods.map((p) => (
        <div className="col" key={p.key}>
          <Tile title={PERIOD_LABELS[p.key] ?? p.key} to={periodLink(p)} testId={`tile-${p.key}`}>
            <Figure value={formatMoney(p.net)} hint={`${formatCount(p.gifts)} gifts`} />
          </Tile>
        </div>
      ))}
      {month && (
        <div className="col">
          <Tile title="Donors this month" to={periodLink(month)} testId="tile-donors">
            <Figure value={formatCount(data.monthDonors)} hint={`${formatCount(month.newDonors)} new donors`} />
          </Tile>
        </div>
      )}
      {month && (
        <div className="col">
          <Tile title="Recurring this month" to={`${periodLink(month)}&recurring=true`} testId="tile-recurring">
            <Figure
              value={formatMoney(month.recurringGross)}
              hint={`${formatCount(data.activeSustainers)} active sustainers`}
            />
          </Tile>
        </div>
      )}
    </div>
  );
}

/** The dashboard: the agency's morning view, from one request. */
export function DashboardPage() {
  const dashboard = useGetDashboard({ query: { meta: { errorMessage: 'Could not load the dashboard' } } });
  if (dashboard.isPending) return <PageSpinner label="Loading the dashboard" />;
  if (dashboard.isError) return <Alert variant="danger">Could not load the dashboard.</Alert>;
  const d = dashboard.data;
  const month = d.revenue?.periods.find((p) => p.key === 'month');
  return (
    <>
      <h1 className="h3 mb-3">Dashboard</h1>
      {d.alerts.length > 0 && (
        <ul className="list-unstyled mb-3" aria-label="Alerts">
          {d.alerts.map((a, i) => (
            <li key={i}>
              <Alert variant={a.kind === 'failed-job' ? 'danger' : 'warning'} className="py-2 mb-2">
                <Link to={a.link} className="alert-link">
                  {a.message}
                </Link>
              </Alert>
            </li>
          ))}
        </ul>
      )}
      {d.revenue && <RevenueTiles data={d.revenue} />}
      {d.pacing && (
        <div className="mb-3">
          <Tile title="Pacing" to="/projections" testId="tile-pacing">
            <Figure value={formatMoney(d.pacing.actual)} hint={pacingHint(d.pacing.actual, d.pacing.projected)} />
            <div className="small text-body-secondary">
              {pacingHint(d.pacing.monthActual, d.pacing.monthProjected, 'Month to date')}
            </div>
          </Tile>
        </div>
      )}
      <div className="row g-3 mb-3">
        <div className="col-md-4">
          <Tile title="Subscribed contacts" to="/contacts?subscription=subscribed" testId="tile-subscribed">
            <Figure
              value={formatCount(d.listSize.subscribed)}
              hint={`${signed(d.listSize.change30)} in 30 days (${formatCount(d.listSize.joined)} joined, ${formatCount(d.listSize.left)} left)`}
            />
          </Tile>
        </div>
        <div className="col-md-8">
          <Tile title="Upcoming sends (next 7 days)" to="/crm-mailings?status=confirmed&within=7" testId="tile-upcoming">
            {d.upcoming.length === 0 ? (
              <div className="small">Nothing scheduled.</div>
            ) : (
              <ul className="list-unstyled small mb-0">
                {d.upcoming.map((u) => (
                  <li key={u.id}>
                    <Link to={mailingLink(u.id)}>{u.name}</Link> — {formatDateTime(u.sendTime)}
                    {u.listName ? ` to ${u.listName}` : ''}
                  </li>
                ))}
              </ul>
            )}
          </Tile>
        </div>
      </div>
      {d.experiments && d.experiments.length > 0 && (
        <div className="mb-3">
          <Tile title="Running experiments" to="/experiments" testId="tile-experiments">
            <ul className="list-unstyled small mb-0">
              {d.experiments.map((x) => (
                <li key={x.id}>{x.name}</li>
              ))}
            </ul>
          </Tile>
        </div>
      )}
      <div className="row g-3 mb-3">
        {d.lastMailings && (
          <div className="col-lg-7">
            <Tile title="Last five mailings" to="/crm-mailings?status=sent" testId="tile-mailings">
              <DataTable
                label="Last five mailings"
                columns={mailingColumns}
                data={d.lastMailings}
                numeric={['delivered', 'revenue', 'rpm']}
                striped={false}
                className="mb-0"
              />
              <EmailRevenueNote extra="Per mailing, over all its gifts so far." />
            </Tile>
          </div>
        )}
        {d.topSourceCodes && (
          <div className="col-lg-5">
            <Tile title="Top source codes this month" to={month ? sourceCodesLink(month) : '/revenue'} testId="tile-codes">
              <DataTable
                label="Top source codes this month"
                columns={codeColumns}
                data={d.topSourceCodes}
                numeric={['gifts', 'net']}
                headless
                striped={false}
                className="mb-0"
              />
            </Tile>
          </div>
        )}
      </div>
      {d.states && (
        <Tile
          title="Revenue and donors by state this month"
          to={month ? periodLink(month) : '/revenue/contributions'}
          testId="tile-states"
        >
          <StateMap states={d.states} />
        </Tile>
      )}
    </>
  );
}

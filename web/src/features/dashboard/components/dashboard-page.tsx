import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { useGetDashboard } from '@/api/gen';
import type { Dashboard } from '@/api/gen/model';
import { PageSpinner } from '@/components/page-spinner';
import { formatDate, formatDateTime, formatCount } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { PERIOD_LABELS, periodLink, signed } from '../utils';
import { StateMap } from './state-map';

/** A card whose title links to the page it summarises. */
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
      <div className="fs-5 fw-semibold">{value}</div>
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
            <Figure value={formatMoney(d.pacing.actual)} hint={`of ${formatMoney(d.pacing.projected)} projected`} />
          </Tile>
        </div>
      )}
      <div className="row g-3 mb-3">
        <div className="col-md-4">
          <Tile title="Subscribed contacts" to="/crm-lists" testId="tile-subscribed">
            <Figure
              value={formatCount(d.listSize.subscribed)}
              hint={`${signed(d.listSize.change30)} in 30 days (${formatCount(d.listSize.joined)} joined, ${formatCount(d.listSize.left)} left)`}
            />
          </Tile>
        </div>
        <div className="col-md-8">
          <Tile title="Upcoming sends (next 7 days)" to="/crm-mailings" testId="tile-upcoming">
            {d.upcoming.length === 0 ? (
              <div className="small">Nothing scheduled.</div>
            ) : (
              <ul className="list-unstyled small mb-0">
                {d.upcoming.map((u) => (
                  <li key={u.id}>
                    <Link to={`/crm-mailings/${u.id}`}>{u.name}</Link> — {formatDateTime(u.sendTime)}
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
        <div className="col-lg-7">
          <Tile title="Last five mailings" to="/crm-mailings" testId="tile-mailings">
            <Table responsive size="sm" className="mb-0" aria-label="Last five mailings">
              <thead>
                <tr>
                  <th scope="col">Mailing</th>
                  <th scope="col">Sent</th>
                  <th scope="col" className="text-end">Delivered</th>
                  <th scope="col" className="text-end">Revenue</th>
                  <th scope="col" className="text-end">RPM</th>
                </tr>
              </thead>
              <tbody>
                {d.lastMailings.map((m) => (
                  <tr key={m.id}>
                    <td>
                      <Link to={`/crm-mailings/${m.id}`}>{m.name}</Link>
                    </td>
                    <td>{formatDate(m.sent)}</td>
                    <td className="text-end">{formatCount(m.delivered)}</td>
                    <td className="text-end">{formatMoney(m.revenue)}</td>
                    <td className="text-end">{formatMoney(m.rpm)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Tile>
        </div>
        {d.topSourceCodes && (
          <div className="col-lg-5">
            <Tile title="Top source codes this month" to="/revenue" testId="tile-codes">
              <Table responsive size="sm" className="mb-0" aria-label="Top source codes this month">
                <tbody>
                  {d.topSourceCodes.map((c) => (
                    <tr key={c.id}>
                      <td>{c.code}</td>
                      <td className="text-end">{formatCount(c.gifts)} gifts</td>
                      <td className="text-end">{formatMoney(c.net)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </Tile>
          </div>
        )}
      </div>
      {d.states && (
        <Tile title="Revenue and donors by state this month" to="/revenue/contributions" testId="tile-states">
          <StateMap states={d.states} />
        </Tile>
      )}
    </>
  );
}

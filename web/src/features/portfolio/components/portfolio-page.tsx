import Alert from 'react-bootstrap/Alert';
import { useGetPortfolio } from '@/api/gen';
import type { PortfolioClient } from '@/api/gen/model';
import { PageSpinner } from '@/components/page-spinner';
import { BenchmarksTable } from './benchmarks-table';
import { figuresAsOf } from '../utils';
import { PortfolioTable } from './portfolio-table';

export interface PortfolioPageProps {
  /** Switches to the client and opens its dashboard. */
  onOpen: (client: PortfolioClient) => void;
  openingId?: number;
}

/** The agency's clients side by side (docs/portfolio.md), and each one's benchmarks against the median. */
export function PortfolioPage({ onOpen, openingId }: PortfolioPageProps) {
  const portfolio = useGetPortfolio();
  if (portfolio.isPending) return <PageSpinner label="Loading your clients" />;
  if (portfolio.isError || !portfolio.data) return <Alert variant="danger">Could not load the portfolio.</Alert>;
  const { clients, benchmarks, generatedAt } = portfolio.data;
  return (
    <>
      <p className="text-body-secondary small">
        This month and the year to date (calendar year) in each client&apos;s time zone; pacing is net to yesterday
        against the projection to date. E-mail RPM and response rate: mailings sent in the last 90 days; bounce and
        complaint rates: the last 30 days. Click a client to open its dashboard.
      </p>
      <p className="text-body-secondary small">{figuresAsOf(generatedAt)} (updated every 5 minutes).</p>
      <PortfolioTable clients={clients} onOpen={onOpen} openingId={openingId} />
      <h2 className="h5 mt-4">Benchmarks</h2>
      <p className="text-body-secondary small">
        Against the median of your clients (a client without the figure is left out of its median). Cost per donor:
        ad spend ÷ new donors over the last 365 days.
      </p>
      <BenchmarksTable clients={clients} median={benchmarks} />
    </>
  );
}

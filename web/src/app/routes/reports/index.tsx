import { ReportsPage } from '@/features/reports/components/reports-page';

export function Component() {
  return <ReportsPage />;
}

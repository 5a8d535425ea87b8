import { EmailAnalyticsPage } from '@/features/email-analytics/email-analytics-page';

export function Component() {
  return <EmailAnalyticsPage />;
}

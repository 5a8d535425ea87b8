import { RetentionPage } from '@/features/retention/components/retention-page';

export function Component() {
  return <RetentionPage />;
}

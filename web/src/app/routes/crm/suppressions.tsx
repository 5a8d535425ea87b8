import { SuppressionsPage } from '@/features/deliverability/components/suppressions-page';

export function Component() {
  return <SuppressionsPage />;
}

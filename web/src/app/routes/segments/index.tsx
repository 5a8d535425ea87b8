import { SegmentsPage } from '@/features/segments/components/segments-page';

export function Component() {
  return <SegmentsPage />;
}

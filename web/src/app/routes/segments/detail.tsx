import { SegmentDetail } from '@/features/segments/components/segment-detail';

export function Component() {
  return <SegmentDetail />;
}

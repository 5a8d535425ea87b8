import { FlightsPage } from '@/features/flights/components/flights-page';

export function Component() {
  return <FlightsPage />;
}

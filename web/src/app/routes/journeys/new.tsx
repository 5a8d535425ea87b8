import { JourneyEditPage } from '@/features/journeys/components/journey-edit-page';

export function Component() {
  return <JourneyEditPage />;
}

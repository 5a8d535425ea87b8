import { JourneysPage } from '@/features/journeys/components/journeys-page';

export function Component() {
  return <JourneysPage />;
}

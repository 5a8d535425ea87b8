import { useParams } from 'react-router';
import { JourneyEditPage } from '@/features/journeys/components/journey-edit-page';

export function Component() {
  const { id } = useParams();
  const journeyId = Number(id);
  // A new id means a new page (fresh builder state).
  return <JourneyEditPage key={journeyId} id={journeyId} />;
}

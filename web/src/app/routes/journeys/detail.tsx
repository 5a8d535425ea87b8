import { useParams } from 'react-router';
import { JourneyDetailPage } from '@/features/journeys/components/journey-detail-page';

export function Component() {
  const { id } = useParams();
  const journeyId = Number(id);
  return <JourneyDetailPage key={journeyId} id={journeyId} />;
}

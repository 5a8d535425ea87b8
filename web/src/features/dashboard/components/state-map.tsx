import { lazy, Suspense } from 'react';
import type { DashboardState } from '@/api/gen/model';
import { PageSpinner } from '@/components/page-spinner';

export interface StateMapProps {
  states: DashboardState[];
  height?: number;
}

// The map and its GeoJSON load with the dashboard's map tile, not with the app.
const StateMapImpl = lazy(() => import('./state-map-impl'));

export function StateMap(props: StateMapProps) {
  return (
    <Suspense fallback={<PageSpinner label="Loading the map" />}>
      <StateMapImpl {...props} />
    </Suspense>
  );
}

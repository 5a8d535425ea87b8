import { PlanningPage } from '@/features/planning/planning-page';

export function Component() {
  return <PlanningPage />;
}

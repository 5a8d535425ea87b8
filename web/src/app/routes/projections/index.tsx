import { ProjectionsPage } from '@/features/projections/components/projections-page';

export function Component() {
  return <ProjectionsPage />;
}

import { ExperimentsPage } from '@/features/experiments/experiments-page';

export function Component() {
  return <ExperimentsPage />;
}

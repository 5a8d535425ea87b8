import { SystemPage } from '@/features/system/components/system-page';

export function Component() {
  return <SystemPage />;
}

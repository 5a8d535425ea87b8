import { SourceCodesPage } from '@/features/revenue/components/source-codes-page';

export function Component() {
  return <SourceCodesPage />;
}

import { OriginCodesTable } from '@/features/origin-codes/components/origin-codes-table';
import { OriginCodeValuePanel } from '@/features/revenue/components/origin-code-value';

export function Component() {
  return (
    <>
      <h1 className="h3 mb-3">Contact Origin Codes</h1>
      <OriginCodeValuePanel />
      <OriginCodesTable />
    </>
  );
}

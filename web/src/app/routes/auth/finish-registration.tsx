import { FinishRegistration } from '@/features/auth/components/finish-registration';

export function Component() {
  return <FinishRegistration />;
}

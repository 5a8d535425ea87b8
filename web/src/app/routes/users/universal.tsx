import { UniversalUsersPage } from '@/features/users/components/universal-users-page';

export function Component() {
  return <UniversalUsersPage />;
}

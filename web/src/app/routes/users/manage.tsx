import { ManageUsersPage } from '@/features/users/components/manage-users-page';

export function Component() {
  return <ManageUsersPage />;
}

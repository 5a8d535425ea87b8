import { RolesPage } from '@/features/users/components/roles-page';

export function Component() {
  return <RolesPage />;
}

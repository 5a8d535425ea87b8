import { ProfilePage } from '@/features/users/components/profile-page';

export function Component() {
  return <ProfilePage />;
}

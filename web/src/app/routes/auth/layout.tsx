import { useIsMutating } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { useGetAuthConfig } from '@/api/gen';
import { AuthLayout } from '@/components/layouts/auth-layout';

/** The /auth shell: "Compass Login" title, spinner while a login call runs, provider in the footer. */
export function Component() {
  const config = useGetAuthConfig();
  const busy = useIsMutating() > 0;
  return (
    <AuthLayout clientName={config.data?.clientAuthShort} providerName={config.data?.providerName} busy={busy}>
      <Outlet />
    </AuthLayout>
  );
}

import { useIsMutating } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { useAuthClient } from '@/features/auth/hooks/use-auth-client';

/**
 * The /auth shell: "Compass Login" (with the client's name for client-auth mode and client sign-in links), a
 * spinner while a login call runs, the provider in the footer.
 */
export function Component() {
  const { config } = useAuthClient();
  const busy = useIsMutating() > 0;
  return (
    <AuthLayout clientName={config.data?.clientName} providerName={config.data?.providerName} busy={busy}>
      <Outlet />
    </AuthLayout>
  );
}

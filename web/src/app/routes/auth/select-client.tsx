import { Navigate, redirect } from 'react-router';
import { useGetAuthConfig } from '@/api/gen';
import { PageSpinner } from '@/components/page-spinner';
import { SelectClientForm } from '@/features/auth/components/select-client-form';
import { getToken, hasClientSession } from '@/lib/session';

/** Choosing a client needs a universal login first. */
export function loader() {
  if (!getToken()) throw redirect('/auth/login');
  return null;
}

/** Hidden in client-auth mode: the login already acts for the one client, so go to the app (or log in). */
export function Component() {
  const config = useGetAuthConfig();
  if (config.isPending) return <PageSpinner />;
  if (config.data?.clientAuthShort) return <Navigate to={hasClientSession() ? '/' : '/auth/login'} replace />;
  return <SelectClientForm />;
}

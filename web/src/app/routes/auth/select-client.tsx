import { redirect } from 'react-router';
import { SelectClientForm } from '@/features/auth/components/select-client-form';
import { getToken } from '@/lib/session';

/** Choosing a client needs a universal login first. */
export function loader() {
  if (!getToken()) throw redirect('/auth/login');
  return null;
}

export function Component() {
  return <SelectClientForm />;
}

import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useGetMe } from '@/api/gen';
import { hasPermission, type PermissionScope } from '@/lib/permissions';
import { PageSpinner } from './page-spinner';

export const PERMISSION_DENIED_MESSAGE = 'You do not have permission to view this page';

export interface RequirePermissionProps {
  permission: string;
  /** Which permission set to look in (default: a page permission, either set). */
  scope?: PermissionScope;
  children: ReactNode;
}

/**
 * Renders its children only for a signed-in user holding `permission` (read from getMe); anyone else sees a plain
 * notice. Hiding a menu item is not access control: every guarded page goes through this.
 */
export function RequirePermission({ permission, scope = 'page', children }: RequirePermissionProps) {
  const me = useGetMe();
  if (me.isPending) return <PageSpinner label="Checking permissions" />;
  if (me.isError || !hasPermission(me.data, permission, scope)) {
    return (
      <Alert variant="warning" className="mt-3">
        {PERMISSION_DENIED_MESSAGE}
      </Alert>
    );
  }
  return children;
}

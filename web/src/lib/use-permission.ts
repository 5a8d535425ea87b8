import { useGetMe } from '@/api/gen';
import { hasPermission, type PermissionScope } from './permissions';

/** Whether the signed-in user holds `permission` (false until their permissions have loaded). */
export function useHasPermission(permission: string, scope: PermissionScope = 'page'): boolean {
  const me = useGetMe();
  return hasPermission(me.data, permission, scope);
}

/** Permission checks shared by the menus and the route guard (spec section 6). */

export interface PermissionSets {
  /** Client permissions in the current client (page permissions, "view user", "edit role"). */
  permissions: readonly string[];
  /** Universal-user permissions ("view user"). */
  universalPermissions: readonly string[];
}

/**
 * Where a permission is looked up:
 * - `page`: a page permission, checked against both sets (the menus do the same);
 * - `client`: the client set only (client "view user", "edit role");
 * - `universal`: the universal set only (universal "view user").
 */
export type PermissionScope = 'page' | 'client' | 'universal';

export const VIEW_USER = 'view user';
export const EDIT_ROLE = 'edit role';

export function hasPermission(
  perms: PermissionSets | undefined,
  permission: string,
  scope: PermissionScope = 'page',
): boolean {
  if (!perms) return false;
  switch (scope) {
    case 'client':
      return perms.permissions.includes(permission);
    case 'universal':
      return perms.universalPermissions.includes(permission);
    case 'page':
      return perms.permissions.includes(permission) || perms.universalPermissions.includes(permission);
  }
}

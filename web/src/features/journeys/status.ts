/** A journey's status and what may be done with it from each. */
export type JourneyStatus = 'draft' | 'active' | 'paused' | 'archived';
export type JourneyAction = 'activate' | 'pause' | 'archive';

export const STATUS_LABELS: Record<JourneyStatus, string> = {
  draft: 'Draft',
  active: 'Active',
  paused: 'Paused',
  archived: 'Archived',
};

export const STATUS_VARIANTS: Record<JourneyStatus, string> = {
  draft: 'secondary',
  active: 'success',
  paused: 'warning',
  archived: 'dark',
};

export const ACTION_LABELS: Record<JourneyAction, string> = { activate: 'Activate', pause: 'Pause', archive: 'Archive' };

/** Draft and paused journeys can be activated, an active one paused; any but an archived one archived. */
export function actionsFor(status: string): JourneyAction[] {
  switch (status) {
    case 'draft':
    case 'paused':
      return ['activate', 'archive'];
    case 'active':
      return ['pause', 'archive'];
    default:
      return [];
  }
}

export const statusLabel = (status: string): string => STATUS_LABELS[status as JourneyStatus] ?? status;
export const statusVariant = (status: string): string => STATUS_VARIANTS[status as JourneyStatus] ?? 'secondary';

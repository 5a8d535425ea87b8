import { describe, expect, it } from 'vitest';
import { actionsFor, statusLabel } from './status';

describe('journey status', () => {
  it('offers what each status allows', () => {
    expect(actionsFor('draft')).toEqual(['activate', 'archive']);
    expect(actionsFor('active')).toEqual(['pause', 'archive']);
    expect(actionsFor('paused')).toEqual(['activate', 'archive']);
    expect(actionsFor('archived')).toEqual([]);
    expect(statusLabel('paused')).toBe('Paused');
  });
});

import { describe, expect, it } from 'vitest';
import { withPositions } from './layout';
import type { JourneyDefinition } from './types';

describe('withPositions', () => {
  it('places unplaced steps in rows by distance from the start, side by side within a row', () => {
    const def: JourneyDefinition = {
      triggers: [],
      reentry: { kind: 'never' },
      exit_on_gift: false,
      start: 'gave',
      steps: [
        { id: 'gave', kind: 'branch', condition: { kind: 'gave' }, yes: 'thanks', no: 'ask' },
        { id: 'thanks', kind: 'end' },
        { id: 'ask', kind: 'wait', hours: 24, next: null },
        { id: 'lost', kind: 'end', x: 7, y: 9 },
      ],
    };
    const placed = withPositions(def);
    expect(placed.steps.map((s) => [s.id, s.x, s.y])).toEqual([
      ['gave', 0, 0],
      ['thanks', -140, 120],
      ['ask', 140, 120],
      ['lost', 7, 9],
    ]);
    expect(withPositions(placed)).toBe(placed);
  });
});

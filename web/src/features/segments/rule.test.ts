import { describe, expect, it } from 'vitest';
import { changeLabel, newCondition, toRule } from './rule';

describe('segment rules', () => {
  it('starts a condition with its first operator and a default value', () => {
    expect(newCondition('gave')).toEqual({ field: 'gave', op: 'withinDays', value: 30 });
    expect(newCondition('mailingsReceived')).toEqual({ field: 'mailingsReceived', op: 'gte', value: 1, window: { days: 30 } });
  });

  it('reads a stored rule into the builder shape', () => {
    expect(toRule({ op: 'or', conditions: [{ field: 'gave', op: 'never' }], groups: [{}] })).toEqual({
      op: 'or',
      conditions: [{ field: 'gave', op: 'never' }],
      groups: [{ op: 'and', conditions: [], groups: [] }],
    });
  });

  it('shows the change since the last compute with its sign', () => {
    expect(changeLabel(null)).toBe('—');
    expect(changeLabel(12)).toBe('+12');
    expect(changeLabel(-3)).toBe('-3');
    expect(changeLabel(0)).toBe('0');
  });
});

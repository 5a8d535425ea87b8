/** Places for steps saved without a drawing (made through the API): rows by distance from the start. */
import { ports, target } from './definition';
import type { JourneyDefinition } from './types';

const ROW = 120;
const COLUMN = 280;

const placed = (s: { x?: number; y?: number }) => typeof s.x === 'number' && typeof s.y === 'number';

/** The definition with every unplaced step given a place; unchanged (the same object) when all have one. */
export function withPositions(def: JourneyDefinition): JourneyDefinition {
  if (def.steps.every(placed)) return def;
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  const queue = def.start && byId.has(def.start) ? [def.start] : [];
  if (queue.length > 0) depth.set(def.start, 0);
  while (queue.length > 0) {
    const id = queue.shift() as string;
    const step = byId.get(id);
    if (!step) continue;
    for (const p of ports(step)) {
      const to = target(step, p);
      if (to && byId.has(to) && !depth.has(to)) {
        depth.set(to, (depth.get(id) ?? 0) + 1);
        queue.push(to);
      }
    }
  }
  // Steps the start does not reach go in a row below the rest.
  const last = Math.max(-1, ...depth.values()) + 1;
  const perRow = new Map<number, number>();
  const rowSize = new Map<number, number>();
  for (const s of def.steps) {
    const d = depth.get(s.id) ?? last;
    rowSize.set(d, (rowSize.get(d) ?? 0) + 1);
  }
  return {
    ...def,
    steps: def.steps.map((s) => {
      const d = depth.get(s.id) ?? last;
      const i = perRow.get(d) ?? 0;
      perRow.set(d, i + 1);
      if (placed(s)) return s;
      return { ...s, x: (i - ((rowSize.get(d) ?? 1) - 1) / 2) * COLUMN, y: d * ROW };
    }),
  };
}

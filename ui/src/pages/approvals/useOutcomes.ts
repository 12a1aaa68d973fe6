// Rows decided on this page stay where they were, saying what was decided, even once the server's
// list (pending approvals, open incidents) no longer holds them; a reload shows the list as it is.
import { useCallback, useState } from 'react';

interface Kept<T, O> {
  item: T;
  index: number;
  outcome: O;
}

export function useOutcomes<T, O>(keyOf: (item: T) => string) {
  const [kept, setKept] = useState<ReadonlyMap<string, Kept<T, O>>>(new Map());
  const record = useCallback(
    (item: T, index: number, outcome: O) =>
      setKept((previous) => new Map(previous).set(keyOf(item), { item, index, outcome })),
    [keyOf],
  );
  /** The listed items with the decided ones the list dropped put back at their places. */
  const withDecided = (items: readonly T[]): T[] => {
    const listed = new Set(items.map(keyOf));
    const rows = [...items];
    for (const [key, entry] of [...kept].sort(([, a], [, b]) => a.index - b.index))
      if (!listed.has(key)) rows.splice(Math.min(entry.index, rows.length), 0, entry.item);
    return rows;
  };
  return { outcomeOf: (item: T) => kept.get(keyOf(item))?.outcome, record, withDecided };
}

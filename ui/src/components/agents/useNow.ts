import { useState, useSyncExternalStore } from 'react';

// One clock for the whole board: every elapsed-time display ticks from the same one-second
// interval, so a page showing 20 live runs re-renders them in one pass a second, not in 20
// passes at 20 phases. The interval runs only while something shows a ticking time.
const TICK_MS = 1_000;
const listeners = new Set<() => void>();
let tickedAt = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    tickedAt = Date.now();
    timer = setInterval(() => {
      tickedAt = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const standStill = () => () => {};

/** The current time, ticking every second while `active` (elapsed-time displays; no server calls); else the time it was first shown. */
export function useNow(active: boolean): number {
  const [shownAt] = useState(Date.now);
  // Before the clock runs (the first render), the time it was shown: tickedAt may be from long ago.
  return useSyncExternalStore(active ? subscribe : standStill, () => (active && timer ? tickedAt : shownAt));
}

/**
 * What `derive` makes of the current time, from the same clock, re-rendering only when that text
 * changes: "3 minutes ago" re-renders once a minute though the clock ticks every second, so a list
 * of 40 times costs 40 string comparisons a second, not 40 renders.
 */
export function useClockText(derive: (now: number) => string): string {
  const [shownAt] = useState(Date.now);
  return useSyncExternalStore(subscribe, () => derive(timer ? tickedAt : shownAt));
}

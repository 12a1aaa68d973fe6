import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function of stable identity that runs the latest `fn` given: handed to memoised children (a table's
 * rows), it lets them skip re-rendering while still acting on the caller's current state when called.
 * Call it from events, not during render (it runs the previous render's `fn` until the commit).
 */
export function useStableHandler<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

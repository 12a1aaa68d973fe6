// Lookups that cannot miss by construction (the map was filled from the same ids a few lines up).

/** `map.get(key)`, for a key the map must hold: a missing one is a bug, thrown naming what was looked up. */
export function entryOf<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`no ${what} for ${String(key)}`);
  return value;
}

// The board's colour scheme: the system's by default, or the one the user picked in the user menu,
// remembered in this browser. The stylesheet holds every colour as a `light-dark()` pair, so the
// choice is one attribute on <html> and "system" is no attribute at all.
import { useSyncExternalStore } from 'react';

export type ThemePreference = 'system' | 'light' | 'dark';
export const THEME_PREFERENCES: { value: ThemePreference; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const STORAGE_KEY = 'boardroom.theme';
const listeners = new Set<() => void>();

function stored(): ThemePreference {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    // Storage refused (a locked-down browser): the system's scheme is the safe default.
    return 'system';
  }
}

function apply(preference: ThemePreference): void {
  if (preference === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = preference;
}

/** Called once before the first render, so a picked scheme is in place on the first paint. */
export function applyStoredTheme(): void {
  apply(stored());
}

export function setThemePreference(preference: ThemePreference): void {
  try {
    if (preference === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, preference);
  } catch {
    // Not remembered past this page; it still applies now.
  }
  apply(preference);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemePreference(): ThemePreference {
  return useSyncExternalStore(subscribe, stored);
}

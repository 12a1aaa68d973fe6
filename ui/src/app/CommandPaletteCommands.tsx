// The keyboard shortcuts, listed once for the shortcut sheet (the places come from places.ts).
import { PLACES } from './places';

/** The keys the shortcut sheet lists, in its order. */
/** `keys` pressed together (`+`) or one after the other (`then`). */
export const SHORTCUTS: { keys: string[]; joiner?: '+' | 'then'; does: string }[] = [
  { keys: ['Ctrl', 'K'], joiner: '+', does: 'Open the command palette (⌘K on a Mac)' },
  { keys: ['c'], does: 'Create an issue' },
  ...PLACES.flatMap((place) =>
    place.goKey ? [{ keys: ['g', place.goKey], joiner: 'then' as const, does: `Go to ${place.label}` }] : [],
  ),
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['Esc'], does: 'Close a dialog or the palette' },
];

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
  { keys: ['s'], does: 'On an issue: open its status picker' },
  { keys: ['a'], does: 'On an issue: open its assignee picker' },
  { keys: ['p'], does: 'On an issue: open its priority picker' },
  { keys: ['j'], does: 'In the issues list: the next row (k: the previous one)' },
  { keys: ['x'], does: 'In the issues list: select the row (a bulk bar appears)' },
  { keys: ['m'], does: 'On a board card: move it (Alt+← and Alt+→ move it a column)' },
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['Esc'], does: 'Close a dialog or the palette' },
];

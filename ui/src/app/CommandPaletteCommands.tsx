// The board's places and their keys, defined once: the command palette lists them, `g` then a key
// goes there, and the shortcut sheet shows them.
export interface PlaceCommand {
  label: string;
  /** Under /c/{companyId}/, or absolute when it starts with '/'. */
  path: string;
  keywords: string[];
  /** The key after `g`. */
  goKey?: string;
}

export const PLACES: PlaceCommand[] = [
  { label: 'Dashboard', path: 'dashboard', keywords: ['home', 'now', 'runs'], goKey: 'd' },
  { label: 'Inbox', path: 'inbox', keywords: ['waiting', 'failed'], goKey: 'i' },
  { label: 'Issues', path: 'issues', keywords: ['tasks', 'board'], goKey: 's' },
  { label: 'Agents', path: 'agents', keywords: ['team', 'workers'], goKey: 'a' },
  { label: 'Org chart', path: 'org', keywords: ['organisation', 'reports'], goKey: 'o' },
  { label: 'Approvals', path: 'approvals', keywords: ['pending', 'hires'], goKey: 'p' },
  { label: 'Activity', path: 'activity', keywords: ['audit', 'log', 'history'], goKey: 'v' },
  { label: 'New company', path: '/onboarding', keywords: ['onboarding', 'create company', 'start'] },
];

export const placeHref = (companyId: string, place: PlaceCommand): string => (place.path.startsWith('/') ? place.path : `/c/${companyId}/${place.path}`);

/** The keys the shortcut sheet lists, in its order. */
/** `keys` pressed together (`+`) or one after the other (`then`). */
export const SHORTCUTS: { keys: string[]; joiner?: '+' | 'then'; does: string }[] = [
  { keys: ['Ctrl', 'K'], joiner: '+', does: 'Open the command palette (⌘K on a Mac)' },
  { keys: ['c'], does: 'Create an issue' },
  ...PLACES.filter((place) => place.goKey).map((place) => ({ keys: ['g', place.goKey!], joiner: 'then' as const, does: `Go to ${place.label}` })),
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['Esc'], does: 'Close a dialog or the palette' },
];

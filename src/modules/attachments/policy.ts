// Who may delete an attachment: the board, or the agent that uploaded it. Other agents of the
// company may read it but not remove another author's file. A yes/no answer: the route turns a no
// into a 403 with authorize().
import type { Actor } from '../../core/actor.ts';
import type { AttachmentView } from './service.ts';

export function canDeleteAttachment(actor: Actor, view: AttachmentView): boolean {
  return actor.kind !== 'agent' || view.asset.createdByAgentId === actor.agentId;
}

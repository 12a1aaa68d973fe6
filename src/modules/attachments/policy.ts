// Who may delete an attachment: the board, or the agent that uploaded it. Other agents of the
// company may read it but not remove another author's file.
import type { Actor } from '../../server/actor.ts';
import { forbidden } from '../../server/errors.ts';
import type { AttachmentView } from './service.ts';

export function assertMayDeleteAttachment(actor: Actor, view: AttachmentView): void {
  if (actor.kind === 'board') return;
  if (view.asset.createdByAgentId !== actor.agentId) throw forbidden('only the board or the uploading agent may delete this attachment');
}

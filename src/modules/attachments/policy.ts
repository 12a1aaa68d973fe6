// Who may delete an attachment: the board, or the agent that uploaded it. Other agents of the
// company may read it but not remove another author's file.
import type { Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import type { AttachmentView } from './service.ts';

export function assertMayDeleteAttachment(actor: Actor, view: AttachmentView): void {
  if (actor.kind !== 'agent') return;
  if (view.asset.createdByAgentId !== actor.agentId) throw forbidden('only the board or the uploading agent may delete this attachment');
}

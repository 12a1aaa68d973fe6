// Who may change a company. Board users with access may change everything; the company's CEO agent
// may change branding fields only (SPEC "Companies").
import type { Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import { BRANDING_FIELDS, type PatchCompany } from './schemas.ts';

export function isCeoAgentOf(actor: Actor, companyId: string): boolean {
  return actor.kind === 'agent' && actor.companyId === companyId && actor.role === 'ceo';
}

export function assertMayPatchCompany(actor: Actor, companyId: string, body: PatchCompany): void {
  if (actor.kind === 'board') return;
  if (!isCeoAgentOf(actor, companyId)) throw forbidden('only the board or the company CEO agent may update the company');
  const disallowed = Object.keys(body).filter((k) => !(BRANDING_FIELDS as readonly string[]).includes(k));
  if (disallowed.length > 0) throw forbidden('a CEO agent may change branding fields only', { fields: disallowed });
}

export function assertMayChangeBranding(actor: Actor, companyId: string): void {
  if (actor.kind === 'agent' && !isCeoAgentOf(actor, companyId)) throw forbidden('only the board or the company CEO agent may change branding');
}

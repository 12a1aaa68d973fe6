// Who may change a company: yes/no answers (routes turn a no into a 403 with authorize()). Board
// users with access may change everything; the company's CEO agent may change branding fields only
// (SPEC "Companies").
import type { Actor } from '../../core/actor.ts';
import { isCeoOf } from '../../core/actor.ts';
import { BRANDING_FIELDS } from './schemas.ts';

/** PATCH at all: the board or the company CEO agent. */
export function canUpdateCompany(actor: Actor, companyId: string): boolean {
  return actor.kind === 'board' || isCeoOf(actor, companyId);
}

/** One field of a PATCH: any for the board; the CEO agent only branding fields. */
export function canPatchCompanyField(actor: Actor, companyId: string, field: string): boolean {
  return (
    actor.kind === 'board' || (isCeoOf(actor, companyId) && (BRANDING_FIELDS as readonly string[]).includes(field))
  );
}

/** PATCH /branding: every non-agent caller, and the company CEO agent. */
export function canChangeBranding(actor: Actor, companyId: string): boolean {
  return actor.kind !== 'agent' || isCeoOf(actor, companyId);
}

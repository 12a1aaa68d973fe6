// Short-lived agent JWTs (HS256) minted for a run; the engine hands them to adapters.
import { jwtVerify, SignJWT } from 'jose';

export interface AgentJwtClaims {
  agentId: string;
  companyId: string;
  adapterType: string;
  runId: string;
}

// Long enough for one heartbeat run, short enough that a leaked token soon stops working.
export const AGENT_JWT_TTL_SECONDS = 2 * 60 * 60;
// Clock skew allowed between the minting host and this one. A token "issued" further ahead was not
// minted by a sane clock (or was minted to outlive its TTL from the reader's point of view): refused.
export const AGENT_JWT_MAX_FUTURE_IAT_SECONDS = 60;

export function mintAgentJwt(
  secret: Uint8Array,
  claims: AgentJwtClaims,
  ttlSeconds = AGENT_JWT_TTL_SECONDS,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ company_id: claims.companyId, adapter_type: claims.adapterType, run_id: claims.runId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.agentId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(secret);
}

/** The claims of a valid, unexpired, not future-issued token signed with `secret`; null for anything else. */
export async function verifyAgentJwt(secret: Uint8Array, token: string): Promise<AgentJwtClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    // jose checks iat only against maxTokenAge; a future iat passes unless refused here.
    if (
      typeof payload.iat !== 'number' ||
      payload.iat > Math.floor(Date.now() / 1000) + AGENT_JWT_MAX_FUTURE_IAT_SECONDS
    )
      return null;
    const { company_id, adapter_type, run_id, sub } = payload as Record<string, unknown>;
    if (
      typeof sub !== 'string' ||
      typeof company_id !== 'string' ||
      typeof adapter_type !== 'string' ||
      typeof run_id !== 'string'
    )
      return null;
    return { agentId: sub, companyId: company_id, adapterType: adapter_type, runId: run_id };
  } catch {
    return null;
  }
}

// Secret providers this instance offers. Only the local encrypted store exists today; the descriptor
// shape (requiresExternalRef) lets an external store (vault, cloud manager) be added without route changes.
import { unprocessable } from '../../core/errors.ts';

export interface SecretProvider {
  id: string;
  label: string;
  requiresExternalRef: boolean;
}

export const DEFAULT_SECRET_PROVIDER = 'local_encrypted';

export const SECRET_PROVIDERS: readonly SecretProvider[] = [
  { id: DEFAULT_SECRET_PROVIDER, label: 'Local encrypted (AES-256-GCM in the database)', requiresExternalRef: false },
];

/** The provider by id; 422 for one this instance does not offer. */
export function requireProvider(id: string): SecretProvider {
  const provider = SECRET_PROVIDERS.find((p) => p.id === id);
  if (!provider) throw unprocessable(`unknown secret provider ${id}`, { providers: SECRET_PROVIDERS.map((p) => p.id) });
  return provider;
}

/** 422 when the provider needs an external reference and none is set. */
export function assertExternalRef(provider: SecretProvider, externalRef: string | null | undefined): void {
  if (provider.requiresExternalRef && !externalRef) throw unprocessable(`provider ${provider.id} requires externalRef`);
}

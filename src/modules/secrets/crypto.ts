// AES-256-GCM for secret versions. The additional authenticated data binds a ciphertext to its
// (company, secret, version), so a row copied to another secret, company or version fails to decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;

export interface SealedValue {
  iv: string;
  authTag: string;
  ciphertext: string;
}

export interface SecretAadContext {
  companyId: string;
  secretId: string;
  version: number;
}

export const secretAad = (c: SecretAadContext) => Buffer.from(`${c.companyId}:${c.secretId}:${c.version}`, 'utf8');

function checkKey(masterKey: Buffer): void {
  if (masterKey.length !== 32) throw new Error('the secrets master key must be 32 bytes');
}

export function sealSecret(masterKey: Buffer, context: SecretAadContext, plaintext: string): SealedValue {
  checkKey(masterKey);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, masterKey, iv);
  cipher.setAAD(secretAad(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    iv: iv.toString('base64'),
    authTag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
}

/** Throws when the key, the context or any stored byte does not match what was sealed. */
export function openSecret(masterKey: Buffer, context: SecretAadContext, sealed: SealedValue): string {
  checkKey(masterKey);
  const decipher = createDecipheriv(ALGORITHM, masterKey, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(secretAad(context));
  decipher.setAuthTag(Buffer.from(sealed.authTag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
}

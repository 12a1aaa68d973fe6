import { index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

export const secrets = pgTable(
  'secrets',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    provider: text('provider').notNull(),
    externalRef: text('external_ref'),
    latestVersion: integer('latest_version').notNull().default(1),
    description: text('description'),
    createdByAgentId: uuid('created_by_agent_id'),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('secrets_company_name_uq').on(t.companyId, t.name),
    index('secrets_company_created_idx').on(t.companyId, t.createdAt.desc()),
  ],
);

/** Immutable versions: AES-256-GCM ciphertext, IV and tag; AAD binds (company, secret, version). */
export const secretVersions = pgTable(
  'secret_versions',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    secretId: uuid('secret_id')
      .notNull()
      .references(() => secrets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    iv: text('iv').notNull(),
    authTag: text('auth_tag').notNull(),
    ciphertext: text('ciphertext').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('secret_versions_secret_version_uq').on(t.secretId, t.version)],
);

import { boolean, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns.ts';
import { companies } from './companies.ts';

export const users = pgTable('users', {
  id: id(),
  name: text('name').notNull(),
  email: text('email').unique(),
  isInstanceOwner: boolean('is_instance_owner').notNull().default(false),
  createdAt: createdAt(),
});

export const companyMemberships = pgTable(
  'company_memberships',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] }), index('company_memberships_user_idx').on(t.userId)],
);

/** Board API keys: only the SHA-256 of the token is stored; `displayPrefix` lets a user recognise a key. */
export const boardApiKeys = pgTable('board_api_keys', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  displayPrefix: text('display_prefix').notNull(),
  createdAt: createdAt(),
  lastUsedAt: ts('last_used_at'),
  revokedAt: ts('revoked_at'),
});

/** Browser sessions (HttpOnly cookie) and the one-time login tokens that open them. */
export const boardSessions = pgTable('board_sessions', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  kind: text('kind').notNull(), // 'login' (one-time) | 'session'
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

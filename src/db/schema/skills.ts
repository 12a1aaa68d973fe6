// Company skills (SPEC "Company skill"): one record per (company, canonical key), its files kept in
// the database beside it (skills are small text folders: PostgreSQL stays the one store of record,
// and every replica serves the same bytes), and the agents' attachments to them.
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

export const companySkills = pgTable(
  'company_skills',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    required: boolean('required').notNull().default(false),
    // service_bundled | codehost | catalog | url | local_path | project_scan | managed_local (skillsite: not built)
    sourceKind: text('source_kind').notNull(),
    // What the skill was imported from (a path, a URL), as the caller wrote it; null for managed skills.
    sourceLocator: text('source_locator'),
    trustLevel: text('trust_level').notNull(), // markdown_only | assets | scripts_executables
    // Frontmatter `metadata`, round-tripped as written.
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    // SHA-256 over the files: a re-import that changes nothing writes nothing (bundled skills are
    // re-imported on every list call).
    contentHash: text('content_hash').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('company_skills_company_key_idx').on(t.companyId, t.key),
    index('company_skills_company_slug_idx').on(t.companyId, t.slug),
  ],
);

export const companySkillFiles = pgTable(
  'company_skill_files',
  {
    skillId: uuid('skill_id')
      .notNull()
      .references(() => companySkills.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    kind: text('kind').notNull(), // skill | reference | script | asset | other
    // utf8 text as is; anything else base64 (assets may be binary).
    encoding: text('encoding').notNull().default('utf8'),
    content: text('content').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.path] }), index('company_skill_files_company_idx').on(t.companyId)],
);

export const agentSkills = pgTable(
  'agent_skills',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    skillId: uuid('skill_id')
      .notNull()
      .references(() => companySkills.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.skillId] }),
    index('agent_skills_company_skill_idx').on(t.companyId, t.skillId),
  ],
);

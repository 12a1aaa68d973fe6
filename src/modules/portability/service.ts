// The export and import use cases the routes and the CLI share: who may, which company, which source.
import type { Db } from '../../db/client.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import type { Actor } from '../../core/actor.ts';
import { unprocessable } from '../../core/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { fileBytes, type BundleFiles, type RenderedBundle } from './bundle.ts';
import { parseBundle } from './parse.ts';
import { exportCompany, INCLUDE_KEYS, type ExportOptions } from './export.ts';
import { readBundleFolder } from './folder.ts';
import { applyImport, type ApplyDeps, type ApplyResult } from './apply.ts';
import { planImport, type ImportOptions, type ImportTarget, type PlanResult } from './plan.ts';
import {
  assertMayImportCompanies,
  assertMayReadServerPath,
  exportingCompany,
  importingInto,
  readsPlainEnv,
} from './policy.ts';
import type { CompanyImportBody, ExportBody, ImportBody } from './schemas.ts';

/** Defaults of `include`: the company and its agents. */
export function exportOptionsOf(body: ExportBody): ExportOptions {
  const include = Object.fromEntries(
    INCLUDE_KEYS.map((k) => [k, body.include?.[k] ?? (k === 'company' || k === 'agents')]),
  ) as ExportOptions['include'];
  return {
    include,
    agents: body.agents,
    projects: body.projects,
    issues: body.issues,
    skills: body.skills,
    includeWorkspacePaths: body.includeWorkspacePaths,
  };
}

/** An export asked for: which company, what to include, and whether only the board or its CEO may (`strict`). */
export interface ExportRequest {
  companyId: string;
  body: ExportBody;
  /** POST /exports and the CLI; POST /export admits any caller with access to the company. */
  strict: boolean;
}

export async function exportBundle(
  db: Db,
  storage: Storage,
  actor: Actor,
  { companyId, body, strict }: ExportRequest,
): Promise<RenderedBundle> {
  const ctx = { db, actor };
  const company = await exportingCompany(ctx, companyId, strict);
  // Agents' env values are shown only to whoever may read configurations (docs/api.md, Agents).
  const hidePlainEnv = !(await readsPlainEnv(ctx, company.id));
  return exportCompany(db, storage, company, { ...exportOptionsOf(body), hidePlainEnv });
}

const KIND_BY_TOP: Record<string, string> = {
  agents: 'agent',
  projects: 'project',
  goals: 'goal',
  skills: 'skill',
  images: 'image',
  blobs: 'blob',
};

/** The preview: the bundle without contents, each file's kind and size. */
export function inventoryOf(bundle: RenderedBundle) {
  const fileInventory = Object.entries(bundle.files).map(([path, file]) => {
    const [top = path] = path.split('/');
    const kind =
      path === 'COMPANY.md'
        ? 'company'
        : path === 'README.md'
          ? 'readme'
          : path === '.boardroom.yaml'
            ? 'meta'
            : top === 'tasks'
              ? path.includes('/documents/')
                ? 'document'
                : 'task'
              : (KIND_BY_TOP[top] ?? 'other');
    return { path, kind, bytes: fileBytes(file).length };
  });
  return {
    rootPath: bundle.rootPath,
    manifest: bundle.manifest,
    warnings: bundle.warnings,
    fileInventory,
    counts: { files: fileInventory.length, bytes: fileInventory.reduce((n, f) => n + f.bytes, 0) },
  };
}

async function filesOf(ctx: Ctx, source: ImportBody['source']): Promise<BundleFiles> {
  if (source.type === 'inline') return source.files;
  await assertMayReadServerPath(ctx);
  return readBundleFolder(source.path);
}

/** Where an import lands and whether the caller may put it there. `scopedTo`: the company-scoped routes. */
async function checkedTarget(
  db: Db,
  actor: Actor,
  body: ImportBody | CompanyImportBody,
  scopedTo: string | null,
): Promise<{ target: ImportTarget; scopeErrors: string[] }> {
  const ctx = { db, actor };
  if (scopedTo) {
    await importingInto(ctx, scopedTo);
    if (body.target && (body.target.mode !== 'existing_company' || body.target.companyId !== scopedTo)) {
      throw unprocessable(
        'this route imports only into its own company: omit `target` or use POST /api/companies/import',
      );
    }
    return {
      target: { mode: 'existing_company', companyId: scopedTo },
      scopeErrors:
        body.collisionStrategy === 'replace'
          ? ['collisionStrategy replace is refused by /imports/apply: use rename or skip']
          : [],
    };
  }
  await assertMayImportCompanies(ctx);
  const target = (body as ImportBody).target;
  if (target.mode === 'existing_company') await requireCompanyAccess(db, actor, target.companyId);
  return { target, scopeErrors: [] };
}

const optionsOf = (body: ImportBody | CompanyImportBody, target: ImportTarget): ImportOptions => ({
  target,
  collisionStrategy: body.collisionStrategy,
  nameOverrides: body.nameOverrides,
  secretValues: body.secretValues,
  adapterOverrides: body.adapterOverrides,
});

export async function previewImport(
  db: Db,
  actor: Actor,
  body: ImportBody | CompanyImportBody,
  scopedTo: string | null = null,
): Promise<PlanResult> {
  const { target, scopeErrors } = await checkedTarget(db, actor, body, scopedTo);
  const { model, warnings } = parseBundle(await filesOf({ db, actor }, body.source));
  const {
    plan,
    warnings: planWarnings,
    errors,
    envInputs,
  } = await planImport(db, model, optionsOf(body, target), warnings);
  return { plan, warnings: planWarnings, errors: [...scopeErrors, ...errors], envInputs };
}

export async function applyImportRequest(
  db: Db,
  actor: Actor,
  deps: ApplyDeps,
  body: ImportBody | CompanyImportBody,
  scopedTo: string | null = null,
): Promise<ApplyResult> {
  const { target, scopeErrors } = await checkedTarget(db, actor, body, scopedTo);
  const [scopeError] = scopeErrors;
  if (scopeError !== undefined) throw unprocessable(scopeError);
  const { model, warnings } = parseBundle(await filesOf({ db, actor }, body.source));
  return applyImport(db, actor, deps, { model, opts: optionsOf(body, target), parseWarnings: warnings });
}

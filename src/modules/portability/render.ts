// A CompanyModel as bundle files: markdown with YAML frontmatter, the generated README and
// .boardroom.yaml (the layout is at the top of bundle.ts).
import { stringify } from 'yaml';
import {
  BUNDLE_SCHEMA,
  type BlobModel,
  type BundleFile,
  type BundleFiles,
  type CompanyModel,
  type Manifest,
  type RenderedBundle,
  type SourceIds,
  type SystemDependent,
} from './bundle.ts';
import { flagSystemDependent } from './env.ts';

const markdown = (frontmatter: Record<string, unknown>, body: string | null) => {
  const clean = Object.fromEntries(Object.entries(frontmatter).filter(([, v]) => v !== undefined));
  return `---\n${stringify(clean, { lineWidth: 0 })}---\n\n${body ?? ''}${body && !body.endsWith('\n') ? '\n' : ''}`;
};

const LOGO_EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
};
const blob = (b: BlobModel): BundleFile => ({ encoding: 'base64', data: b.data, contentType: b.contentType });

/**
 * A model as bundle files. `systemDependent` collects values flagged by the caller (workspace paths);
 * `ids` (the source records' ids to their slugs) is written to .boardroom.yaml when given.
 */
export function renderBundle(
  model: CompanyModel,
  opts: { warnings?: string[]; systemDependent?: SystemDependent[]; ids?: SourceIds } = {},
): RenderedBundle {
  const files: BundleFiles = {};
  const warnings = [...(opts.warnings ?? [])];
  const systemDependent = [...(opts.systemDependent ?? [])];
  const rootPath = model.company?.slug ?? 'company';
  const c = model.company;
  if (c) {
    files['COMPANY.md'] = markdown(
      {
        schema: BUNDLE_SCHEMA,
        name: c.name,
        slug: c.slug,
        brandColor: c.brandColor ?? undefined,
        budgetMonthlyCents: c.budgetMonthlyCents || undefined,
        requireBoardApprovalForNewAgents: c.requireBoardApprovalForNewAgents || undefined,
        logo: model.logo ? `images/logo.${LOGO_EXTENSIONS[model.logo.contentType] ?? 'bin'}` : undefined,
      },
      c.description,
    );
  }
  if (model.logo) files[`images/logo.${LOGO_EXTENSIONS[model.logo.contentType] ?? 'bin'}`] = blob(model.logo);
  for (const a of model.agents) {
    const path = `agents/${a.slug}/AGENTS.md`;
    flagSystemDependent(
      path,
      { 'adapterConfig.command': a.adapterConfig.command, 'adapterConfig.cwd': a.adapterConfig.cwd },
      systemDependent,
    );
    files[path] = markdown(
      {
        name: a.name,
        slug: a.slug,
        role: a.role,
        title: a.title ?? undefined,
        reportsTo: a.reportsTo ?? undefined,
        adapter: { type: a.adapterType, config: a.adapterConfig },
        runtimeConfig: a.runtimeConfig,
        permissions: a.permissions,
        budgetMonthlyCents: a.budgetMonthlyCents || undefined,
        skills: a.skills.length > 0 ? a.skills : undefined,
      },
      // The agent's capabilities are what it is told it is for: the natural body of its file.
      a.capabilities,
    );
  }
  for (const p of model.projects) {
    const path = `projects/${p.slug}/PROJECT.md`;
    p.workspaces.forEach((w, i) =>
      flagSystemDependent(
        path,
        { [`workspaces[${i}].setupCommand`]: w.setupCommand, [`workspaces[${i}].cleanupCommand`]: w.cleanupCommand },
        systemDependent,
      ),
    );
    files[path] = markdown(
      {
        name: p.name,
        slug: p.slug,
        status: p.status,
        color: p.color,
        targetDate: p.targetDate ?? undefined,
        lead: p.lead ?? undefined,
        goals: p.goals.length > 0 ? p.goals : undefined,
        env: p.env ?? undefined,
        workspaces: p.workspaces.length > 0 ? p.workspaces : undefined,
      },
      p.description,
    );
  }
  for (const g of model.goals) {
    files[`goals/${g.slug}/GOAL.md`] = markdown(
      {
        title: g.title,
        slug: g.slug,
        level: g.level,
        status: g.status,
        parent: g.parent ?? undefined,
        owner: g.owner ?? undefined,
      },
      g.description,
    );
  }
  for (const i of model.issues) {
    files[`tasks/${i.slug}/TASK.md`] = markdown(
      {
        title: i.title,
        slug: i.slug,
        status: i.status,
        priority: i.priority,
        project: i.project ?? undefined,
        goal: i.goal ?? undefined,
        parent: i.parent ?? undefined,
        assignee: i.assignee ?? undefined,
        billingCode: i.billingCode ?? undefined,
      },
      i.description,
    );
    for (const d of i.documents)
      files[`tasks/${i.slug}/documents/${d.key}.md`] = markdown(
        { key: d.key, title: d.title ?? undefined, format: d.format },
        d.body,
      );
  }
  for (const r of model.routines) {
    files[`tasks/${r.slug}/TASK.md`] = markdown(
      {
        title: r.title,
        slug: r.slug,
        recurring: true,
        assignee: r.assignee ?? undefined,
        project: r.project ?? undefined,
        goal: r.goal ?? undefined,
        priority: r.priority,
        concurrencyPolicy: r.concurrencyPolicy,
        catchUpPolicy: r.catchUpPolicy,
        variables: r.variables.length > 0 ? r.variables : undefined,
      },
      r.description,
    );
  }
  for (const s of model.skills) {
    for (const f of s.files)
      files[`skills/${s.slug}/${f.path}`] = f.encoding === 'utf8' ? f.content : { encoding: 'base64', data: f.content };
  }
  for (const b of model.blobs) files[`blobs/${b.sha256}`] = blob(b);
  files['.boardroom.yaml'] = stringify(
    {
      schema: BUNDLE_SCHEMA,
      inputs: model.envInputs,
      routines: Object.fromEntries(model.routines.map((r) => [r.slug, { triggers: r.triggers }])),
      attachments: Object.fromEntries(
        model.issues.filter((i) => i.attachments.length > 0).map((i) => [i.slug, i.attachments]),
      ),
      skills: Object.fromEntries(model.skills.map((s) => [s.slug, { key: s.key, sourceKind: s.sourceKind }])),
      systemDependent,
      ids: opts.ids,
    },
    { lineWidth: 0 },
  );
  files['README.md'] = readmeOf(model);
  if (model.envInputs.length > 0)
    warnings.push(
      `${model.envInputs.length} env value(s) left out as inputs: ${model.envInputs.map((i) => i.key).join(', ')}`,
    );
  if (systemDependent.length > 0)
    warnings.push(
      `${systemDependent.length} value(s) are paths or commands of this machine (manifest.systemDependent)`,
    );
  const manifest: Manifest = {
    schema: BUNDLE_SCHEMA,
    company: c ? { name: c.name, slug: c.slug } : null,
    counts: {
      agents: model.agents.length,
      projects: model.projects.length,
      goals: model.goals.length,
      issues: model.issues.length,
      routines: model.routines.length,
      skills: model.skills.length,
      blobs: model.blobs.length,
    },
    envInputs: model.envInputs,
    systemDependent,
  };
  return { rootPath, files, manifest, warnings };
}

/** The generated README: what the company is, its org chart as a nested list, its projects. */
function readmeOf(model: CompanyModel): string {
  const lines = [`# ${model.company?.name ?? 'Company bundle'}`, ''];
  if (model.company?.description) lines.push(model.company.description, '');
  lines.push(
    `A company bundle (\`${BUNDLE_SCHEMA}\`) exported from Boardroom. Import it with \`boardroom company import <folder>\`; agents and routines arrive paused.`,
    '',
  );
  if (model.agents.length > 0) {
    lines.push('## Org chart', '');
    const slugs = new Set(model.agents.map((a) => a.slug));
    const walk = (manager: string | null, depth: number) => {
      for (const a of model.agents.filter(
        (x) => (x.reportsTo && slugs.has(x.reportsTo) ? x.reportsTo : null) === manager,
      )) {
        lines.push(
          `${'  '.repeat(depth)}- **${a.name}** (${a.title ?? a.role}, \`${a.adapterType}\`): [agents/${a.slug}](agents/${a.slug}/AGENTS.md)`,
        );
        if (depth < 20) walk(a.slug, depth + 1);
      }
    };
    walk(null, 0);
    lines.push('');
  }
  if (model.projects.length > 0) {
    lines.push('## Projects', '');
    for (const p of model.projects)
      lines.push(`- **${p.name}** (${p.status}): [projects/${p.slug}](projects/${p.slug}/PROJECT.md)`);
    lines.push('');
  }
  const counts = [
    `${model.goals.length} goals`,
    `${model.issues.length} tasks`,
    `${model.routines.length} routines`,
    `${model.skills.length} skills`,
  ];
  lines.push('## Contents', '', counts.join(', ') + '.', '');
  if (model.envInputs.length > 0) {
    lines.push(
      '## Inputs to supply',
      '',
      ...model.envInputs.map(
        (i) => `- \`${i.key}\` (${i.kind}, ${i.requirement}): ${i.usedBy.map((u) => `${u.path} ${u.env}`).join(', ')}`,
      ),
      '',
    );
  }
  return lines.join('\n');
}

// Export: what to include, an optional selection, a preview of the file tree (no contents), and the
// download: the bundle fetched from POST /exports and zipped in the browser as <rootPath>.zip.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { ErrorNotice } from '../../components/ErrorNotice';
import { bundleToZip } from './bundle-zip';
import { bytes } from './bytes';
import { FileTree } from './FileTree';

type ExportBody = NonNullable<
  paths['/api/companies/{companyId}/exports']['post']['requestBody']
>['content']['application/json'];
type IncludeKey = keyof NonNullable<ExportBody['include']>;

const INCLUDES: { key: IncludeKey; label: string }[] = [
  { key: 'company', label: 'Company' },
  { key: 'agents', label: 'Agents' },
  { key: 'projects', label: 'Projects' },
  { key: 'goals', label: 'Goals' },
  { key: 'issues', label: 'Issues' },
  { key: 'skills', label: 'Skills' },
  { key: 'routines', label: 'Routines' },
];
const SELECTORS = [
  { key: 'agents', label: 'Only these agents', hint: 'slugs or ids, comma-separated' },
  { key: 'projects', label: 'Only these projects', hint: 'slugs or ids, comma-separated' },
  { key: 'issues', label: 'Only these issues', hint: 'identifiers such as ACM-12, or ids, comma-separated' },
  { key: 'skills', label: 'Only these skills', hint: 'keys or ids, comma-separated' },
] as const;
type SelectorKey = (typeof SELECTORS)[number]['key'];

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click starts the download synchronously; the URL can go once the event loop turns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportPanel({ companyId }: { companyId: string }) {
  const [include, setInclude] = useState<Record<IncludeKey, boolean>>({
    company: true,
    agents: true,
    projects: true,
    goals: true,
    issues: true,
    skills: true,
    routines: true,
  });
  const [selectors, setSelectors] = useState<Record<SelectorKey, string>>({
    agents: '',
    projects: '',
    issues: '',
    skills: '',
  });
  const [workspacePaths, setWorkspacePaths] = useState(false);

  const body = (): ExportBody => ({
    include,
    ...Object.fromEntries(
      SELECTORS.flatMap(({ key }) => (list(selectors[key]).length > 0 ? [[key, list(selectors[key])]] : [])),
    ),
    ...(workspacePaths && { includeWorkspacePaths: true }),
  });
  const preview = useMutation({
    mutationFn: async (exportBody: ExportBody) =>
      data(
        await api.POST('/api/companies/{companyId}/exports/preview', {
          params: { path: { companyId } },
          body: exportBody,
        }),
      ),
  });
  const download = useMutation({
    mutationFn: async (exportBody: ExportBody) => {
      const bundle = data(
        await api.POST('/api/companies/{companyId}/exports', { params: { path: { companyId } }, body: exportBody }),
      );
      saveBlob(bundleToZip(bundle.rootPath, bundle.files), `${bundle.rootPath}.zip`);
      return bundle;
    },
  });
  // A changed choice makes the shown preview stale: it goes until asked for again.
  const changed = () => preview.reset();

  const result = preview.data;
  return (
    <section className="card portability-section" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <p className="muted">A bundle of markdown files. Secrets never leave: they become inputs to supply at import.</p>
      <fieldset className="portability-includes">
        <legend>Include</legend>
        {INCLUDES.map(({ key, label }) => (
          <label key={key} className="checkbox">
            <input
              type="checkbox"
              checked={include[key]}
              onChange={(event) => {
                setInclude({ ...include, [key]: event.target.checked });
                changed();
              }}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <details className="portability-selectors">
        <summary>Selection (optional)</summary>
        {SELECTORS.map(({ key, label, hint }) => (
          <div className="field" key={key}>
            <label htmlFor={`export-${key}`}>{label}</label>
            <input
              id={`export-${key}`}
              value={selectors[key]}
              aria-describedby={`export-${key}-hint`}
              onChange={(event) => {
                setSelectors({ ...selectors, [key]: event.target.value });
                changed();
              }}
            />
            <span id={`export-${key}-hint`} className="hint">
              {hint}; empty: all
            </span>
          </div>
        ))}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={workspacePaths}
            onChange={(event) => {
              setWorkspacePaths(event.target.checked);
              changed();
            }}
          />
          Keep local workspace paths (they only exist on this machine)
        </label>
      </details>
      <div className="portability-actions">
        <button type="button" onClick={() => preview.mutate(body())} disabled={preview.isPending}>
          {preview.isPending ? 'Previewing…' : 'Preview'}
        </button>
        <button type="button" className="primary" onClick={() => download.mutate(body())} disabled={download.isPending}>
          {download.isPending ? 'Preparing…' : 'Download .zip'}
        </button>
      </div>
      {preview.isError && <ErrorNotice error={preview.error} title="The preview failed" />}
      {download.isError && <ErrorNotice error={download.error} title="The export failed" />}
      {download.isSuccess && (
        <p className="muted" role="status">
          Downloaded {download.data.rootPath}.zip ({Object.keys(download.data.files).length} files).
        </p>
      )}
      {result && (
        <div className="portability-preview" aria-label="Export preview" role="region">
          <p>
            {result.counts.files} files, {bytes(result.counts.bytes)}: {result.manifest.counts.agents} agents,{' '}
            {result.manifest.counts.projects} projects, {result.manifest.counts.goals} goals,{' '}
            {result.manifest.counts.issues} issues, {result.manifest.counts.routines} routines,{' '}
            {result.manifest.counts.skills} skills, {result.manifest.counts.blobs} attachments.
          </p>
          {result.manifest.envInputs.length > 0 && (
            <p className="muted">
              Inputs to supply at import: {result.manifest.envInputs.map((input) => input.key).join(', ')}.
            </p>
          )}
          <Warnings warnings={result.warnings} />
          <FileTree rootPath={result.rootPath} files={result.fileInventory} />
        </div>
      )}
    </section>
  );
}

export function Warnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="notice notice-warning">
      <strong>
        {warnings.length} {warnings.length === 1 ? 'warning' : 'warnings'}
      </strong>
      <ul>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </div>
  );
}

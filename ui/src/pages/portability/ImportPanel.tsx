// Import: a .zip read in the browser, the plan the server makes for it shown before anything is
// written, the inputs (secrets) to supply, and apply. Into a new company (POST /api/companies/import)
// or into this one (the company-scoped routes, which refuse `replace`).
import { Select } from '../../components/ui/Combobox';
import { FileInput } from '../../components/ui/FileInput';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, data } from '../../api/client';
import { instanceKeys, isCompanyQuery } from '../../api/keys';
import type { paths } from '../../api/schema';
import { ErrorNotice } from '../../components/ErrorNotice';
import { zipToBundle, type BundleFiles } from './bundle-zip';
import { Warnings } from './ExportPanel';
import { ImportPlan } from './ImportPlan';
import { ImportResult } from './ImportResult';

type ImportBody = NonNullable<paths['/api/companies/import']['post']['requestBody']>['content']['application/json'];
type Strategy = NonNullable<ImportBody['collisionStrategy']>;
type Mode = 'new_company' | 'this_company';
interface ChosenZip {
  fileName: string;
  rootPath?: string;
  files: BundleFiles;
  fileCount: number;
}

const STRATEGIES: { value: Strategy; label: string }[] = [
  { value: 'rename', label: 'Rename: create beside it (Name 2)' },
  { value: 'skip', label: 'Skip: keep the existing one' },
  { value: 'replace', label: 'Replace: overwrite it' },
];

export function ImportPanel({ companyId }: { companyId: string }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [mode, setMode] = useState<Mode>('new_company');
  const [companyName, setCompanyName] = useState('');
  const [strategy, setStrategy] = useState<Strategy>('rename');
  const [zip, setZip] = useState<ChosenZip | null>(null);
  const [secretValues, setSecretValues] = useState<Record<string, string>>({});

  const read = useMutation({
    mutationFn: async (file: File): Promise<ChosenZip> => ({
      fileName: file.name,
      ...zipToBundle(new Uint8Array(await file.arrayBuffer())),
    }),
    onSuccess: setZip,
  });

  const request = (chosen: ChosenZip) => {
    const supplied = Object.fromEntries(Object.entries(secretValues).filter(([, value]) => value !== ''));
    return {
      source: { type: 'inline' as const, ...(chosen.rootPath && { rootPath: chosen.rootPath }), files: chosen.files },
      collisionStrategy: strategy,
      ...(Object.keys(supplied).length > 0 && { secretValues: supplied }),
    };
  };
  const newCompanyTarget = {
    mode: 'new_company' as const,
    ...(companyName.trim() && { newCompanyName: companyName.trim() }),
  };

  const preview = useMutation({
    mutationFn: async (chosen: ChosenZip) =>
      mode === 'new_company'
        ? data(
            await api.POST('/api/companies/import/preview', { body: { ...request(chosen), target: newCompanyTarget } }),
          )
        : data(
            await api.POST('/api/companies/{companyId}/imports/preview', {
              params: { path: { companyId } },
              body: request(chosen),
            }),
          ),
  });
  const apply = useMutation({
    mutationFn: async (chosen: ChosenZip) =>
      mode === 'new_company'
        ? data(await api.POST('/api/companies/import', { body: { ...request(chosen), target: newCompanyTarget } }))
        : data(
            await api.POST('/api/companies/{companyId}/imports/apply', {
              params: { path: { companyId } },
              body: request(chosen),
            }),
          ),
    // Not awaited (void): the result shows at once while the lists refresh, and a refetch that fails
    // is shown by the page that reads it (invalidateQueries itself never rejects).
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: instanceKeys.companies });
      // Into this company: every list of it may have grown.
      if (mode === 'this_company')
        void queryClient.invalidateQueries({ predicate: (query) => isCompanyQuery(query.queryKey, companyId) });
    },
  });

  // A changed choice makes the shown plan stale: it goes, and Apply waits for a new preview.
  const reset = () => {
    preview.reset();
    apply.reset();
  };
  const choose = (file: File | undefined) => {
    reset();
    setZip(null);
    setSecretValues({});
    if (file) read.mutate(file);
  };

  const plan = preview.data;
  const hasErrors = (plan?.errors.length ?? 0) > 0;
  const strategies = mode === 'this_company' ? STRATEGIES.filter((option) => option.value !== 'replace') : STRATEGIES;

  return (
    <section className="card portability-section" aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <p className="muted">
        A bundle .zip (an export of this or another Boardroom). Nothing is written before you apply; imported agents and
        routines arrive paused.
      </p>
      <fieldset className="portability-includes">
        <legend>Import into</legend>
        <label className="checkbox">
          <input
            type="radio"
            name={`${ids}-mode`}
            checked={mode === 'new_company'}
            onChange={() => {
              setMode('new_company');
              reset();
            }}
          />
          A new company
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name={`${ids}-mode`}
            checked={mode === 'this_company'}
            onChange={() => {
              setMode('this_company');
              if (strategy === 'replace') setStrategy('rename');
              reset();
            }}
          />
          This company
        </label>
      </fieldset>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${ids}-file`}>Bundle (.zip)</label>
          <FileInput
            id={`${ids}-file`}
            label="Choose a bundle"
            accept=".zip,application/zip"
            hint="A .zip export; or drop one here."
            onFiles={(files) => choose(files[0])}
          />
          {zip && (
            <span className="hint">
              {zip.fileName}: {zip.fileCount} files{zip.rootPath ? ` under ${zip.rootPath}/` : ''}
            </span>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${ids}-strategy`}>When a record already exists</label>
          <Select
            id={`${ids}-strategy`}
            value={strategy}
            onChange={(next) => {
              setStrategy(next);
              reset();
            }}
            options={strategies}
          />
        </div>
      </div>
      {mode === 'new_company' && (
        <div className="field">
          <label htmlFor={`${ids}-name`}>
            New company name <span className="muted">(optional)</span>
          </label>
          <input
            id={`${ids}-name`}
            value={companyName}
            maxLength={200}
            aria-describedby={`${ids}-name-hint`}
            onChange={(event) => {
              setCompanyName(event.target.value);
              reset();
            }}
          />
          <span id={`${ids}-name-hint`} className="hint">
            Empty: the name in the bundle.
          </span>
        </div>
      )}
      {read.isError && <ErrorNotice error={read.error} title="The zip could not be read" />}
      <div className="portability-actions">
        <button type="button" disabled={!zip || preview.isPending} onClick={() => zip && preview.mutate(zip)}>
          {preview.isPending ? 'Planning…' : 'Preview import'}
        </button>
      </div>
      {preview.isError && <ErrorNotice error={preview.error} title="The bundle was refused" />}
      {plan && !apply.isSuccess && (
        <div className="portability-preview" role="region" aria-label="Import plan">
          <ImportPlan plan={plan.plan} />
          {plan.errors.length > 0 && (
            <div className="notice notice-error" role="alert">
              <strong>
                Apply is blocked: {plan.errors.length === 1 ? 'one error' : `${plan.errors.length} errors`} in the
                bundle
              </strong>
              <ul>
                {plan.errors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </ul>
              <p className="muted">Fix the bundle (or choose another strategy) and preview again.</p>
            </div>
          )}
          <Warnings warnings={plan.warnings} />
          {plan.envInputs.length > 0 && (
            <fieldset className="portability-inputs">
              <legend>Inputs the bundle declares</legend>
              <p className="muted">
                Each value becomes a company secret its envs reference. Left empty, the env entry stays unset. The
                warnings above are from the last preview: preview again to check them with these values.
              </p>
              {plan.envInputs.map((input) => (
                <div className="field" key={input.key}>
                  <label htmlFor={`${ids}-input-${input.key}`}>
                    {input.key} <span className="muted">({input.requirement})</span>
                  </label>
                  <input
                    id={`${ids}-input-${input.key}`}
                    type="password"
                    autoComplete="off"
                    value={secretValues[input.key] ?? ''}
                    aria-describedby={`${ids}-input-${input.key}-hint`}
                    onChange={(event) => setSecretValues({ ...secretValues, [input.key]: event.target.value })}
                  />
                  <span id={`${ids}-input-${input.key}-hint`} className="hint">
                    Used by {input.usedBy.map((use) => `${use.path} (${use.env})`).join(', ')}
                    {input.supplied && !secretValues[input.key]
                      ? '; the company already has a secret of this name'
                      : ''}
                  </span>
                </div>
              ))}
            </fieldset>
          )}
          <div className="portability-actions">
            <button
              type="button"
              className="primary"
              disabled={hasErrors || apply.isPending || !zip}
              aria-describedby={hasErrors ? `${ids}-blocked` : undefined}
              onClick={() => zip && apply.mutate(zip)}
            >
              {apply.isPending ? 'Importing…' : 'Apply import'}
            </button>
            {hasErrors && (
              <span id={`${ids}-blocked`} className="muted">
                Blocked until the plan has no errors.
              </span>
            )}
          </div>
        </div>
      )}
      {apply.isError && <ErrorNotice error={apply.error} title="The import failed; nothing was written" />}
      {apply.data && <ImportResult result={apply.data} newCompany={mode === 'new_company'} />}
    </section>
  );
}

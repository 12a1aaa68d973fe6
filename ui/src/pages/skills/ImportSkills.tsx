// Bringing skills into the library: import from a source (one text field takes every form the import
// route reads) and create an empty managed skill to write in the browser.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiError, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { skillKeys } from '../../queries/skills';

const IMPORT_STATUS_LABELS = { created: 'added', updated: 'updated', unchanged: 'unchanged' } as const;

/** A 409's `details.warnings`: why every skill found was skipped. */
function skippedWarnings(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.status !== 409) return [];
  const warnings = (error.details as { warnings?: unknown } | undefined)?.warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : [];
}

export function ImportSkillsForm({ companyId }: { companyId: string }) {
  const queryClient = useQueryClient();
  const [source, setSource] = useState('');
  const importSkills = useMutation({
    mutationFn: async (from: string) =>
      data(
        await api.POST('/api/companies/{companyId}/skills/import', {
          params: { path: { companyId } },
          body: { source: from },
        }),
      ),
    onSuccess: () => {
      setSource('');
      return queryClient.invalidateQueries({ queryKey: skillKeys.all(companyId) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    importSkills.mutate(source.trim());
  };
  const result = importSkills.data;
  const skipped = skippedWarnings(importSkills.error);

  return (
    <form className="card skills-import" onSubmit={submit} aria-labelledby="skills-import-heading">
      <h2 id="skills-import-heading">Import skills</h2>
      <div className="field">
        <label htmlFor="skill-source">Source</label>
        <input
          id="skill-source"
          className="mono"
          required
          maxLength={2048}
          value={source}
          placeholder="owner/repo, a GitHub URL, or /path/on/the/server"
          aria-describedby="skill-source-hint"
          onChange={(event) => setSource(event.target.value)}
        />
        <span id="skill-source-hint" className="hint">
          A GitHub repository (<code>owner/repo</code>, <code>owner/repo/skill</code>, or a repository,{' '}
          <code>/tree/…</code> or <code>/blob/…/SKILL.md</code> URL), a catalog URL or its <code>npx skills add …</code>{' '}
          command, an absolute folder or SKILL.md path on the server, or an http(s) URL of a SKILL.md.
        </span>
      </div>
      <button type="submit" className="primary" disabled={importSkills.isPending}>
        {importSkills.isPending ? 'Importing…' : 'Import'}
      </button>
      {importSkills.isError && (
        <ErrorNotice error={importSkills.error} title="Nothing was imported">
          {skipped.length > 0 ? (
            <ul>
              {skipped.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          ) : undefined}
        </ErrorNotice>
      )}
      {result && (
        <div className="notice skills-import-result" role="status">
          <strong>
            {result.imported.length} skill{result.imported.length === 1 ? '' : 's'} imported from{' '}
            {result.source.locator}
          </strong>
          <ul>
            {result.imported.map((skill) => (
              <li key={skill.id}>
                <Link to={`/c/${companyId}/skills/${skill.id}`}>{skill.name}</Link>{' '}
                <span className="muted">({IMPORT_STATUS_LABELS[skill.status]})</span>
              </li>
            ))}
          </ul>
          {result.warnings.length > 0 && (
            <div className="notice notice-warning">
              <strong>Warnings</strong>
              <ul>
                {result.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </form>
  );
}

export function CreateSkillForm({ companyId }: { companyId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: async (body: { name: string; description?: string }) =>
      data(await api.POST('/api/companies/{companyId}/skills', { params: { path: { companyId } }, body })),
    onSuccess: async (skill) => {
      await queryClient.invalidateQueries({ queryKey: skillKeys.all(companyId) });
      await navigate(`/c/${companyId}/skills/${skill.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), ...(description.trim() && { description: description.trim() }) });
  };
  return (
    <form className="card skills-create" onSubmit={submit} aria-labelledby="skills-create-heading">
      <h2 id="skills-create-heading">Write a new skill</h2>
      <div className="field">
        <label htmlFor="new-skill-name">Name</label>
        <input
          id="new-skill-name"
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="new-skill-description">Description</label>
        <input
          id="new-skill-description"
          maxLength={2000}
          value={description}
          placeholder="When an agent should use it"
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create and edit'}
      </button>
      {create.isError && <ErrorNotice error={create.error} title="The skill was not created" />}
    </form>
  );
}

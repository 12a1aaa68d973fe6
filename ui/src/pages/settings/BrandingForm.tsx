// Name, description and brand colour, saved together with PATCH /api/companies/{id}/branding.
// The name is the server's to judge (empty, too long): its 400 is shown at the field it names.
// The colour is checked here too, since a colour picker and a hex box must agree before saving.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError, api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fieldErrorsByPath } from '../../api/field-errors';
import { useCompanyChanged, type Company } from '../../queries/company';

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const DEFAULT_PICKER = '#4f46e5';

/** The colour input only takes #rrggbb: #abc becomes #aabbcc for it. */
const sixDigits = (hex: string) =>
  (hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex).toLowerCase();

export function BrandingForm({ company }: { company: Company }) {
  const changed = useCompanyChanged(company.id);
  const [name, setName] = useState(company.name);
  const [description, setDescription] = useState(company.description ?? '');
  const [color, setColor] = useState(company.brandColor ?? '');
  const [colorError, setColorError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: async () =>
      data(
        await api.PATCH('/api/companies/{companyId}/branding', {
          params: { path: { companyId: company.id } },
          body: {
            name,
            description: description.trim() === '' ? null : description,
            brandColor: color.trim() === '' ? null : color.trim(),
          },
        }),
      ),
    onSuccess: (saved) => {
      setName(saved.name);
      setDescription(saved.description ?? '');
      setColor(saved.brandColor ?? '');
      changed(saved);
    },
  });
  const serverErrors =
    save.error instanceof ApiError && save.error.status === 400 ? fieldErrorsByPath(save.error.details) : {};
  const errors: Record<string, string | undefined> = {
    ...serverErrors,
    '/brandColor': colorError ?? serverErrors['/brandColor'],
  };
  const unplaced = Object.keys(serverErrors).filter((path) => !['/name', '/description', '/brandColor'].includes(path));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.reset();
    const hex = color.trim();
    if (hex !== '' && !HEX.test(hex)) {
      setColorError('Enter a hex colour such as #0f766e or #abc.');
      return;
    }
    setColorError(null);
    save.mutate();
  };

  const describedBy = (id: string, hint?: boolean) =>
    [hint && `${id}-hint`, errors[`/${id.replace('company-', '')}`] && `${id}-error`].filter(Boolean).join(' ') ||
    undefined;
  const fieldError = (id: string, path: string) =>
    errors[path] && (
      <span className="field-error" id={`${id}-error`}>
        {errors[path]}
      </span>
    );

  return (
    <form className="card settings-card" aria-labelledby="branding-heading" onSubmit={submit} noValidate>
      <h2 id="branding-heading">Branding</h2>
      <div className="field">
        <label htmlFor="company-name">Name</label>
        <input
          id="company-name"
          type="text"
          value={name}
          aria-invalid={errors['/name'] ? true : undefined}
          aria-describedby={describedBy('company-name', true)}
          onChange={(event) => setName(event.target.value)}
        />
        <span className="hint" id="company-name-hint">
          Shown in the switcher and page titles. The issue prefix ({company.issuePrefix}) stays as it is.
        </span>
        {fieldError('company-name', '/name')}
      </div>
      <div className="field">
        <label htmlFor="company-description">Description</label>
        <textarea
          id="company-description"
          rows={3}
          value={description}
          aria-invalid={errors['/description'] ? true : undefined}
          aria-describedby={describedBy('company-description')}
          onChange={(event) => setDescription(event.target.value)}
        />
        {fieldError('company-description', '/description')}
      </div>
      <div className="field">
        <label htmlFor="company-brandColor">Brand colour</label>
        <div className="brand-color-row">
          <input
            type="color"
            aria-label="Brand colour picker"
            value={HEX.test(color.trim()) ? sixDigits(color.trim()) : DEFAULT_PICKER}
            onChange={(event) => {
              setColor(event.target.value);
              setColorError(null);
            }}
          />
          <input
            id="company-brandColor"
            type="text"
            className="mono"
            placeholder="#0f766e"
            value={color}
            aria-invalid={errors['/brandColor'] ? true : undefined}
            aria-describedby={describedBy('company-brandColor', true)}
            onChange={(event) => {
              setColor(event.target.value);
              setColorError(null);
            }}
          />
        </div>
        <span className="hint" id="company-brandColor-hint">
          Hex, #rgb or #rrggbb. Empty clears it.
        </span>
        {fieldError('company-brandColor', '/brandColor')}
      </div>
      {save.isError && (
        <ErrorNotice error={save.error} title="Branding was not saved">
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map((path) => (
                <li key={path}>
                  <code>{path}</code>: {serverErrors[path]}
                </li>
              ))}
            </ul>
          )}
        </ErrorNotice>
      )}
      {save.isSuccess && (
        <p className="notice" role="status">
          Saved.
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save branding'}
        </button>
      </div>
    </form>
  );
}

// The company logo: upload (POST /api/companies/{id}/logo stores it, sanitising an SVG), then set it
// as the logo with the branding PATCH. What is shown is what the server stored: the image and, for
// an SVG, its source as sanitised, so the board sees what became of scripts and handlers.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FileInput } from '../../components/ui/FileInput';
import { logoSourceQuery, useCompanyChanged, type Company } from '../../queries/company';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,image/svg+xml';

export function LogoCard({ company }: { company: Company }) {
  const changed = useCompanyChanged(company.id);
  const setLogo = async (logoAssetId: string | null) =>
    data(
      await api.PATCH('/api/companies/{companyId}/branding', {
        params: { path: { companyId: company.id } },
        body: { logoAssetId },
      }),
    );
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      // openapi-fetch sends FormData as is; the browser sets the multipart boundary.
      const stored = data(
        await api.POST('/api/companies/{companyId}/logo', {
          params: { path: { companyId: company.id } },
          body: form as unknown as { file: string },
        }),
      );
      return setLogo(stored.assetId);
    },
    onSuccess: changed,
  });
  const remove = useMutation({ mutationFn: () => setLogo(null), onSuccess: changed });
  const source = useQuery(logoSourceQuery(company.id, company.logoAssetId));

  return (
    <section className="card settings-card" aria-labelledby="logo-heading">
      <h2 id="logo-heading">Logo</h2>
      <div className="logo-row">
        {company.logoUrl ? (
          <img className="company-logo-preview" src={company.logoUrl} alt={`${company.name} logo`} />
        ) : (
          <p className="muted">No logo yet.</p>
        )}
        <div className="field">
          <label htmlFor="company-logo">Upload a logo</label>
          <FileInput
            id="company-logo"
            label="Choose an image"
            accept={ACCEPT}
            disabled={upload.isPending}
            hint="PNG, JPEG, WebP, GIF or SVG. An SVG is sanitised by the server: scripts, event handlers, external references and styles are removed."
            onFiles={(files) => {
              const file = files[0];
              if (file) upload.mutate(file);
            }}
          />
        </div>
        {company.logoAssetId && (
          <button type="button" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Remove logo
          </button>
        )}
      </div>
      {upload.isPending && <p role="status">Uploading…</p>}
      {upload.isError && <ErrorNotice error={upload.error} title="The logo was not uploaded" />}
      {remove.isError && <ErrorNotice error={remove.error} title="The logo was not removed" />}
      {source.isError && (
        <ErrorNotice
          error={source.error}
          retry={() => source.refetch()}
          title="The logo's source could not be loaded"
        />
      )}
      {source.data && (
        <details className="logo-source">
          <summary>SVG as stored (sanitised)</summary>
          <pre className="mono" aria-label="Sanitised SVG source">
            {source.data}
          </pre>
        </details>
      )}
    </section>
  );
}

// The issue's attachments: upload (multipart; the server's size limit answers 413 in its own words),
// download, and a preview for images (the content route serves the bytes; an <img> never runs them).
// `AttachFile` is the page's "+ Attach file" action; the list shows nothing while there is nothing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { Dialog } from '../../components/Dialog';
import { Button, buttonClass } from '../../components/ui/Button';
import { FileInput } from '../../components/ui/FileInput';
import { ErrorNotice } from '../../components/ErrorNotice';
import { timeAgo } from '../../lib/format';
import { issueAttachmentsQuery, type Attachment } from '../../queries/issues';

const IMAGE = /^image\/(png|jpeg|gif|webp|avif|svg\+xml)$/;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "+ Attach file": uploads the chosen file; says while it uploads, and why it was refused. */
export function AttachFile({ companyId, issueId }: { companyId: string; issueId: string }) {
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return data(
        await api.POST('/api/companies/{companyId}/issues/{issueId}/attachments', {
          params: { path: { companyId, issueId } },
          // The typed body describes the form's fields; openapi-fetch sends FormData as is and the
          // browser sets the multipart boundary.
          body: form as unknown as { file: string },
        }),
      );
    },
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: issueAttachmentsQuery(companyId, issueId).queryKey }),
  });
  return (
    <div className="issue-attach">
      <FileInput
        label="Attach file"
        size="sm"
        hint=""
        disabled={upload.isPending}
        onFiles={(files) => files[0] && upload.mutate(files[0])}
      />
      {upload.isPending && (
        <p className="muted" role="status">
          Uploading {upload.variables?.name} ({size(upload.variables?.size ?? 0)})…
        </p>
      )}
      {upload.isError && (
        <ErrorNotice error={upload.error} title={`${upload.variables?.name ?? 'The file'} was not uploaded`} />
      )}
    </div>
  );
}

export function Attachments({ companyId, issueId }: { companyId: string; issueId: string }) {
  const [preview, setPreview] = useState<Attachment | null>(null);
  const attachments = useQuery(issueAttachmentsQuery(companyId, issueId));
  const list = attachments.data ?? [];
  if (list.length === 0 && !attachments.isError) return null;

  return (
    <section className="issue-section" aria-labelledby="attachments-heading">
      <h2 id="attachments-heading">Attachments {list.length > 0 && <span className="count">{list.length}</span>}</h2>
      {attachments.isError && (
        <ErrorNotice
          error={attachments.error}
          title="Attachments could not be loaded"
          retry={() => void attachments.refetch()}
        />
      )}
      <ul className="attachment-list">
        {list.map((attachment) => {
          const name = attachment.name ?? 'unnamed file';
          return (
            <li key={attachment.id} className="attachment">
              {IMAGE.test(attachment.contentType) && (
                <button
                  type="button"
                  className="thumbnail"
                  onClick={() => setPreview(attachment)}
                  aria-label={`Preview ${name}`}
                >
                  <img src={attachment.contentPath} alt="" loading="lazy" />
                </button>
              )}
              <div>
                <a href={attachment.contentPath} download={name}>
                  {name}
                </a>
                <div className="muted">
                  {attachment.contentType} · {size(attachment.byteSize)} · {timeAgo(attachment.createdAt)}
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={preview !== null}
        onOpenChange={(open) => !open && setPreview(null)}
        title={preview?.name ?? 'Image'}
      >
        {preview && <img className="image-preview" src={preview.contentPath} alt={preview.name ?? 'attached image'} />}
        <div className="row">
          {preview && (
            <a className={buttonClass({})} href={preview.contentPath} download={preview.name ?? 'image'}>
              Download
            </a>
          )}
          <Button onClick={() => setPreview(null)}>Close</Button>
        </div>
      </Dialog>
    </section>
  );
}

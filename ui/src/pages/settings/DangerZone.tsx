// Archive (reversible: the company leaves the lists, its data stays) and delete (irreversible: the
// name must be typed). Both ask first; a refusal is shown in the dialog that asked.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { instanceKeys, isCompanyQuery } from '../../api/keys';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Dialog, DialogActions } from '../../components/Dialog';
import { useCompanyChanged, type Company } from '../../queries/company';

const ARCHIVE_MEANS =
  'Archiving hides the company from the company list and the switcher. Its agents, issues, runs and history are kept, and you can make it active again here at any time.';

export function DangerZone({ company }: { company: Company }) {
  const archived = company.status === 'archived';
  return (
    <section className="card settings-card danger-zone" aria-labelledby="danger-heading">
      <h2 id="danger-heading">Archive or delete</h2>
      <div className="danger-row">
        <div>
          <strong>{archived ? 'Archived' : 'Archive this company'}</strong>
          <p className="muted">{ARCHIVE_MEANS}</p>
        </div>
        {archived ? <RestoreButton company={company} /> : <ArchiveButton company={company} />}
      </div>
      <div className="danger-row">
        <div>
          <strong>Delete this company</strong>
          <p className="muted">
            Removes the company and everything it owns: agents, issues, documents, secrets, logos and the activity log.
            This cannot be undone; archive it to keep the data.
          </p>
        </div>
        <DeleteButton company={company} />
      </div>
    </section>
  );
}

function ArchiveButton({ company }: { company: Company }) {
  const [open, setOpen] = useState(false);
  const changed = useCompanyChanged(company.id);
  const archive = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/companies/{companyId}/archive', { params: { path: { companyId: company.id } } })),
    onSuccess: (saved) => {
      changed(saved);
      setOpen(false);
    },
  });
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Archive…
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => (setOpen(next), archive.reset())}
        title={`Archive ${company.name}?`}
        description={ARCHIVE_MEANS}
      >
        {archive.isError && <ErrorNotice error={archive.error} title="The company was not archived" />}
        <DialogActions
          onCancel={() => setOpen(false)}
          onConfirm={() => archive.mutate()}
          label="Archive company"
          busyLabel="Archiving…"
          busy={archive.isPending}
        />
      </Dialog>
    </>
  );
}

function RestoreButton({ company }: { company: Company }) {
  const changed = useCompanyChanged(company.id);
  const restore = useMutation({
    mutationFn: async () =>
      data(
        await api.PATCH('/api/companies/{companyId}', {
          params: { path: { companyId: company.id } },
          body: { status: 'active' },
        }),
      ),
    onSuccess: changed,
  });
  return (
    <div>
      <button type="button" disabled={restore.isPending} onClick={() => restore.mutate()}>
        Make active again
      </button>
      {restore.isError && <ErrorNotice error={restore.error} title="The company was not restored" />}
    </div>
  );
}

function DeleteButton({ company }: { company: Company }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async () =>
      data(await api.DELETE('/api/companies/{companyId}', { params: { path: { companyId: company.id } } })),
    onSuccess: async () => {
      // Everything cached about the company is gone with it; the home page picks another one.
      queryClient.removeQueries({
        predicate: (query) => isCompanyQuery(query.queryKey, company.id),
      });
      await queryClient.invalidateQueries({ queryKey: instanceKeys.companies });
      await navigate('/');
    },
  });
  const matches = typed === company.name;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches) remove.mutate();
  };
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Delete…
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setTyped('');
          remove.reset();
        }}
        title={`Delete ${company.name}?`}
        description="This deletes the company and all its data for good."
      >
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor="delete-confirm">
              Type <strong>{company.name}</strong> to confirm
            </label>
            <input
              id="delete-confirm"
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          </div>
          {remove.isError && <ErrorNotice error={remove.error} title="The company was not deleted" />}
          <DialogActions
            onCancel={() => setOpen(false)}
            label="Delete company"
            busyLabel="Deleting…"
            busy={remove.isPending}
            disabled={!matches}
            tone="danger"
          />
        </form>
      </Dialog>
    </>
  );
}

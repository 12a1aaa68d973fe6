import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { instanceKeys } from '../../api/keys';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CreatedSummary, FieldError, StepActions } from './StepActions';

export interface CreatedCompany {
  id: string;
  name: string;
}

/** "12.50" or "$1,200" → cents; null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (cleaned === '') return 0;
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

export function CompanyStep({
  created,
  onDone,
}: {
  created: CreatedCompany | null;
  onDone: (company: CreatedCompany) => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [budget, setBudget] = useState('');
  const [errors, setErrors] = useState<{ name?: string; budget?: string }>({});
  const create = useMutation({
    mutationFn: async (body: { name: string; description?: string; budgetMonthlyCents: number }) =>
      data(await api.POST('/api/companies', { body })),
    onSuccess: (company) => {
      void queryClient.invalidateQueries({ queryKey: instanceKeys.companies });
      onDone({ id: company.id, name: company.name });
    },
  });

  if (created) return <CreatedSummary what="The company" name={created.name} onContinue={() => onDone(created)} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cents = parseDollars(budget);
    const found = {
      ...(name.trim() === '' && { name: 'Give the company a name.' }),
      ...(cents === null && { budget: 'Write an amount in dollars, like 500 or 1250.50, or leave it empty.' }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0 || cents === null) return;
    create.mutate({
      name: name.trim(),
      ...(description.trim() && { description: description.trim() }),
      budgetMonthlyCents: cents,
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="company-step-heading">
      <h2 id="company-step-heading">Your company</h2>
      <div className="field">
        <label htmlFor="company-name">Name</label>
        <input
          id="company-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          autoFocus
          required
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'company-name-error' : undefined}
          maxLength={200}
        />
        <FieldError id="company-name-error" message={errors.name} />
      </div>
      <div className="field">
        <label htmlFor="company-description">
          Description <span className="muted">(optional)</span>
        </label>
        <textarea
          id="company-description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          rows={3}
        />
      </div>
      <div className="field">
        <label htmlFor="company-budget">
          Monthly budget in dollars <span className="muted">(optional)</span>
        </label>
        <input
          id="company-budget"
          inputMode="decimal"
          value={budget}
          onChange={(event) => setBudget(event.target.value)}
          aria-invalid={errors.budget ? true : undefined}
          aria-describedby={errors.budget ? 'company-budget-error' : 'company-budget-hint'}
          placeholder="500"
        />
        <span id="company-budget-hint" className="hint">
          Agents stop when the company spends this much in a calendar month. Empty: no limit.
        </span>
        <FieldError id="company-budget-error" message={errors.budget} />
      </div>
      {create.isError && <ErrorNotice error={create.error} title="The company could not be created" />}
      <StepActions>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create company'}
        </button>
      </StepActions>
    </form>
  );
}

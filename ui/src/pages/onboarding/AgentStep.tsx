import { useMutation } from '@tanstack/react-query';
import { Select } from '../../components/ui/Combobox';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { AdapterConfigFields, configValue, useConfigFields } from './AdapterConfigFields';
import { AdapterPicker } from './AdapterPicker';
import { CreatedSummary, FieldError, StepActions } from './StepActions';

export interface CreatedAgent {
  id: string;
  name: string;
}

const ROLES = [
  { value: 'ceo', label: 'CEO (runs the company, may hire)' },
  { value: 'engineer', label: 'Engineer' },
  { value: 'general', label: 'General' },
];

export function AgentStep({
  companyId,
  created,
  onBack,
  onDone,
}: {
  companyId: string;
  created: CreatedAgent | null;
  onBack: () => void;
  onDone: (agent: CreatedAgent) => void;
}) {
  const [name, setName] = useState('');
  const [role, setRole] = useState('engineer');
  const [adapterType, setAdapterType] = useState('');
  const [config, setConfig] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fields = useConfigFields(adapterType);
  const create = useMutation({
    mutationFn: async (body: {
      name: string;
      role: string;
      adapterType: string;
      adapterConfig: Record<string, unknown>;
    }) => data(await api.POST('/api/companies/{companyId}/agents', { params: { path: { companyId } }, body })),
    onSuccess: (agent) => onDone({ id: agent.id, name: agent.name }),
  });

  if (created)
    return <CreatedSummary what="The agent" name={created.name} onBack={onBack} onContinue={() => onDone(created)} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === '') found.name = 'Give the agent a name.';
    if (adapterType === '') found.adapter = 'Pick how the agent runs.';
    for (const field of fields.data ?? [])
      if (field.required && !(config[field.key] ?? '').trim())
        found[field.key] = `The ${adapterType} adapter needs a ${field.key}.`;
    setErrors(found);
    if (Object.keys(found).length > 0 || !fields.data) return;
    const adapterConfig = Object.fromEntries(
      fields.data.flatMap((field): [string, unknown][] => {
        const typed = config[field.key];
        return typed !== undefined && typed.trim() !== '' ? [[field.key, configValue(field, typed)]] : [];
      }),
    );
    create.mutate({ name: name.trim(), role, adapterType, adapterConfig });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="agent-step-heading">
      <h2 id="agent-step-heading">Your first agent</h2>
      <div className="field-row">
        <div className="field">
          <label htmlFor="agent-name">Name</label>
          <input
            id="agent-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoFocus
            maxLength={200}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? 'agent-name-error' : undefined}
          />
          <FieldError id="agent-name-error" message={errors.name} />
        </div>
        <div className="field">
          <label htmlFor="agent-role">Role</label>
          <Select id="agent-role" value={role} onChange={setRole} options={ROLES} />
        </div>
      </div>
      <AdapterPicker
        value={adapterType}
        onChange={(type) => {
          setAdapterType(type);
          setConfig({});
          setErrors(({ adapter: _, ...rest }) => rest);
        }}
      />
      <FieldError id="adapter-error" message={errors.adapter} />
      <AdapterConfigFields
        type={adapterType}
        values={config}
        errors={errors}
        onChange={(key, text) => setConfig((current) => ({ ...current, [key]: text }))}
      />
      {create.isError && <ErrorNotice error={create.error} title="The agent could not be created" />}
      <StepActions onBack={onBack}>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create agent'}
        </button>
      </StepActions>
    </form>
  );
}

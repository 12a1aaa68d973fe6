// Picks an issue's labels: type to find one, Enter or a click toggles it (the list stays open for the
// next), and a name the company does not have yet offers `Create label "x"`, which creates the label
// and adds it. The chosen ids are the caller's (an issue PATCH, usually); this says what changed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { Check, Plus } from 'lucide-react';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { type Label, type LabelColor, labelKeys, labelsQuery } from '../../queries/labels';
import { ErrorNotice } from '../ErrorNotice';
import { Icon } from '../ui/Icon';
import { LabelDot } from './LabelChip';

/** New labels take these tones in turn, so a few fresh labels tell apart at a glance (live stays for runs). */
const NEW_LABEL_TONES: LabelColor[] = ['info', 'violet', 'success', 'warning', 'danger', 'neutral'];
const MAX_NAME = 40;

/** Substring match on the label's name, as the board's other pickers match. */
const matchWords = (_value: string, search: string, keywords?: string[]): number => {
  const needle = search.trim().toLowerCase();
  return !needle || (keywords ?? []).some((word) => word.toLowerCase().includes(needle)) ? 1 : 0;
};

export function LabelPicker({
  companyId,
  value,
  onChange,
}: {
  companyId: string;
  value: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const queryClient = useQueryClient();
  const labels = useQuery(labelsQuery(companyId));
  const [search, setSearch] = useState('');
  const create = useMutation({
    mutationFn: async (name: string) =>
      data(
        await api.POST('/api/companies/{companyId}/labels', {
          params: { path: { companyId } },
          body: { name, color: NEW_LABEL_TONES[(labels.data?.length ?? 0) % NEW_LABEL_TONES.length] },
        }),
      ),
    onSuccess: (label: Label) => {
      queryClient.setQueryData<Label[]>(labelKeys.list(companyId), (old) =>
        [...(old ?? []), label].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
      );
      void queryClient.invalidateQueries({ queryKey: labelKeys.all(companyId) });
      setSearch('');
      onChange([...value, label.id]);
    },
  });
  const toggle = (id: string) => onChange(value.includes(id) ? value.filter((other) => other !== id) : [...value, id]);
  const name = search.trim();
  const exists = (labels.data ?? []).some((label) => label.name.toLowerCase() === name.toLowerCase());
  const canCreate = name.length > 0 && name.length <= MAX_NAME && !exists && labels.isSuccess;

  return (
    <div className="label-picker">
      {/* cmdk names its input by the Command's label (aria-labelledby), not by the input's own aria-label. */}
      <Command filter={matchWords} loop label="Find or create a label">
        <Command.Input
          className="combobox-search"
          value={search}
          onValueChange={(next) => {
            setSearch(next);
            create.reset();
          }}
          placeholder="Find or create a label…"
          aria-label="Find or create a label"
          maxLength={MAX_NAME}
          autoFocus
        />
        <Command.List className="combobox-list" aria-multiselectable>
          <Command.Empty className="combobox-empty">
            {labels.isPending ? 'Loading labels…' : 'No labels yet: type a name to create one'}
          </Command.Empty>
          {(labels.data ?? []).map((label) => {
            const chosen = value.includes(label.id);
            return (
              <Command.Item
                key={label.id}
                value={label.id}
                keywords={[label.name]}
                onSelect={() => toggle(label.id)}
                className="menu-item"
                data-chosen={chosen || undefined}
              >
                <LabelDot color={label.color} />
                <span className="menu-item-label">{label.name}</span>
                {chosen && <Icon icon={Check} size={14} className="menu-check" label="selected" />}
              </Command.Item>
            );
          })}
          {canCreate && (
            <Command.Item
              value="__create"
              keywords={[name]}
              disabled={create.isPending}
              onSelect={() => create.mutate(name)}
              className="menu-item combobox-footer"
            >
              <Icon icon={Plus} />
              <span className="menu-item-label">
                {create.isPending ? `Creating “${name}”…` : `Create label “${name}”`}
              </span>
            </Command.Item>
          )}
        </Command.List>
      </Command>
      {create.isError && <ErrorNotice error={create.error} title={`The label “${name}” was not created`} />}
      {labels.isError && (
        <ErrorNotice error={labels.error} title="The labels could not be loaded" retry={() => void labels.refetch()} />
      )}
    </div>
  );
}

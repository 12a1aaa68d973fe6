// A label as it reads everywhere: its colour as a dot (the tone's token) and its name. The dot is
// decoration; the name is the label.
import { useQuery } from '@tanstack/react-query';
import { type Label, type LabelColor, labelsQuery } from '../../queries/labels';

export function LabelDot({ color }: { color: LabelColor }) {
  return <span className={`label-dot tone-${color}`} aria-hidden="true" />;
}

export function LabelChip({ label }: { label: Pick<Label, 'name' | 'color'> }) {
  return (
    <span className="label-chip" title={label.name}>
      <LabelDot color={label.color} />
      <span className="label-chip-name">{label.name}</span>
    </span>
  );
}

/**
 * The labels of an issue, by name (the company's labels are one cached read). An id the company no
 * longer has (deleted meanwhile, or the labels not loaded yet) shows as nothing rather than a UUID.
 */
export function LabelChips({
  companyId,
  ids,
  className,
}: {
  companyId: string;
  ids: readonly string[];
  className?: string;
}) {
  const { data } = useQuery({ ...labelsQuery(companyId), enabled: ids.length > 0 });
  if (ids.length === 0 || !data) return null;
  const shown = data.filter((label) => ids.includes(label.id));
  if (shown.length === 0) return null;
  return (
    <span className={className ? `label-chips ${className}` : 'label-chips'}>
      {shown.map((label) => (
        <LabelChip key={label.id} label={label} />
      ))}
    </span>
  );
}

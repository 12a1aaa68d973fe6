import { CircleDot, Tag, UserRound } from 'lucide-react';
import { useState } from 'react';
import { FilterChips, type FilterField } from '../../../components/display/FilterChips';
import { Row } from './Row';

const FIELDS: FilterField[] = [
  {
    id: 'status',
    label: 'Status',
    icon: CircleDot,
    multiple: true,
    options: ['Backlog', 'Todo', 'Blocked', 'Done'].map((label) => ({ value: label.toLowerCase(), label })),
  },
  {
    id: 'owner',
    label: 'Owner',
    icon: UserRound,
    options: ['Dev', 'Gus', 'Ana'].map((label) => ({ value: label.toLowerCase(), label })),
  },
  {
    id: 'label',
    label: 'Label',
    icon: Tag,
    unknownValue: 'Unknown label',
    options: ['Bug', 'Feature', 'Design'].map((label) => ({ value: label.toLowerCase(), label })),
  },
];

export function FilterChipsSection() {
  const [value, setValue] = useState<Record<string, string[]>>({ status: ['todo', 'blocked'], label: ['gone'] });
  return (
    <>
      <Row label="Active filters and + Filter">
        <FilterChips
          fields={FIELDS}
          value={value}
          onChange={(field, values) => setValue({ ...value, [field]: values })}
        />
      </Row>
      <Row label="None active">
        <FilterChips fields={FIELDS} value={{}} onChange={() => undefined} label="Empty filters" />
      </Row>
    </>
  );
}

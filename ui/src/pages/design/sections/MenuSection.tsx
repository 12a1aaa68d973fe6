import { Copy, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, IconButton } from '../../../components/ui/Button';
import { Menu, MenuItem, MenuLabel, MenuRadioGroup, MenuSeparator } from '../../../components/ui/Menu';
import { Row } from './Row';

export function MenuSection() {
  const [picked, setPicked] = useState('Nothing yet');
  const [sort, setSort] = useState<'updated' | 'created'>('updated');
  return (
    <>
      <Row label="Actions">
        <Menu trigger={<Button>Issue actions</Button>}>
          <MenuItem icon={Pencil} shortcut="E" onSelect={() => setPicked('Rename')}>
            Rename
          </MenuItem>
          <MenuItem icon={Copy} onSelect={() => setPicked('Duplicate')}>
            Duplicate
          </MenuItem>
          <MenuItem disabled>Archive (disabled)</MenuItem>
          <MenuSeparator />
          <MenuItem icon={Trash2} destructive onSelect={() => setPicked('Delete')}>
            Delete
          </MenuItem>
        </Menu>
        <span role="status">Picked: {picked}</span>
      </Row>
      <Row label="Radio items">
        <Menu trigger={<IconButton icon={MoreHorizontal} aria-label="Sort options" />} label="Sort options">
          <MenuLabel>Sort by</MenuLabel>
          <MenuRadioGroup
            value={sort}
            onValueChange={setSort}
            options={[
              { value: 'updated', label: 'Last updated' },
              { value: 'created', label: 'Created' },
            ]}
          />
        </Menu>
        <span className="muted">Sorted by {sort === 'updated' ? 'last updated' : 'created'}</span>
      </Row>
    </>
  );
}

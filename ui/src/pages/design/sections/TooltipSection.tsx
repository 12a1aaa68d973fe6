import { Search } from 'lucide-react';
import { IconButton } from '../../../components/ui/Button';
import { Kbd } from '../../../components/ui/Kbd';
import { Tooltip } from '../../../components/ui/Tooltip';
import { Row } from './Row';

export function TooltipSection() {
  return (
    <>
      <Row label="Keys">
        <Kbd>?</Kbd>
        <Kbd>Ctrl K</Kbd>
        <Kbd keys={['G', 'I']} />
      </Row>
      <Row label="Tooltip">
        <Tooltip content="Search" shortcut="Ctrl K">
          <IconButton icon={Search} aria-label="Search" />
        </Tooltip>
        <span className="muted">Hover or focus the button.</span>
      </Row>
    </>
  );
}

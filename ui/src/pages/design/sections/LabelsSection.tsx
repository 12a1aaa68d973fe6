import { LabelChip } from '../../../components/labels/LabelChip';
import type { LabelColor } from '../../../queries/labels';
import { Row } from './Row';

const TONES: LabelColor[] = ['neutral', 'info', 'live', 'success', 'warning', 'danger', 'violet'];

export function LabelsSection() {
  return (
    <div className="design-stack">
      <Row label="Every colour">
        <span className="label-chips">
          {TONES.map((color) => (
            <LabelChip key={color} label={{ name: color[0]?.toUpperCase() + color.slice(1), color }} />
          ))}
        </span>
      </Row>
      <Row label="A long name">
        <span className="label-chips">
          <LabelChip label={{ name: 'Customer escalation (EMEA)', color: 'danger' }} />
          <LabelChip label={{ name: 'Docs', color: 'info' }} />
        </span>
      </Row>
    </div>
  );
}

import { Skeleton } from '../../../components/ui/Skeleton';
import { Row } from './Row';

export function SkeletonSection() {
  return (
    <div className="design-stack">
      <Row label="Avatar and line">
        <Skeleton circle />
        <Skeleton width="40%" />
      </Row>
      <Skeleton lines={3} />
    </div>
  );
}

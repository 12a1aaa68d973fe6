import { Banner } from '../../../components/ui/Banner';
import { Button } from '../../../components/ui/Button';

export function BannerSection() {
  return (
    <div className="design-stack">
      <Banner tone="info" title="A new version is available">
        Restart the server to use it.
      </Banner>
      <Banner tone="warning" title="2 agents are near their budget">
        Gus has spent 92% of $15.00 this month.
      </Banner>
      <Banner tone="danger" title="3 agents are stopped" action={<Button size="sm">Resume agents</Button>}>
        They reached their monthly budget.
      </Banner>
      <Banner tone="success" title="All runs succeeded today" />
    </div>
  );
}

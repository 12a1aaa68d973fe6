import { Activity, MessageSquare } from 'lucide-react';
import { TabPanel, Tabs } from '../../../components/ui/Tabs';

export function TabsSection() {
  return (
    <Tabs
      label="Issue sections"
      items={[
        { value: 'comments', label: 'Comments', icon: MessageSquare, count: 3 },
        { value: 'activity', label: 'Activity', icon: Activity },
        { value: 'runs', label: 'Runs (disabled)', disabled: true },
      ]}
    >
      <TabPanel value="comments">Three comments would be here.</TabPanel>
      <TabPanel value="activity">The issue's activity would be here.</TabPanel>
      <TabPanel value="runs">Runs.</TabPanel>
    </Tabs>
  );
}

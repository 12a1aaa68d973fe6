// The board's plugin pages (issue 27 section 5), under /c/{companyId}/plugins: the company's plugins
// and consents, the instance's installed plugins, one plugin's details, and a plugin's own pages.
import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { CompanyPluginsPage } from './CompanyPluginsPage';
import { InstancePluginsPage } from './InstancePluginsPage';
import { PluginDetailPage } from './PluginDetailPage';
import { PluginSlotPage } from './PluginSlotPage';

export function PluginsArea() {
  return (
    <Routes>
      <Route index element={<CompanyPluginsPage />} />
      <Route path="installed" element={<InstancePluginsPage />} />
      <Route path=":pluginId" element={<PluginDetailPage />} />
      <Route path=":pluginId/pages/:slotKey" element={<PluginSlotPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

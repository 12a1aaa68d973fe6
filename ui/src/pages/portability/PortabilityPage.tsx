import { useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';

/** Export the company as a bundle .zip, or import one (docs/portability.md). */
export function PortabilityPage() {
  const { companyId = '' } = useParams();
  return (
    <div className="page">
      <PageHeader title="Export and import" />
      <div className="portability">
        <ExportPanel companyId={companyId} />
        <ImportPanel companyId={companyId} />
      </div>
    </div>
  );
}

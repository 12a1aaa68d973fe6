// Instance settings (instance-level, not the company's): the server's version, the doctor checks of
// the running server, and the adapter registry. Changes to adapters are the instance owner's alone:
// the server answers 403 to other board users, shown where they acted.
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { doctorQuery, healthQuery } from '../../queries/instance';
import { AdapterList } from './AdapterList';
import { CheckList } from './CheckList';
import { InstallAdapterForm } from './InstallAdapterForm';

export function InstanceSettingsPage() {
  return (
    <div className="page instance-page">
      <PageHeader title="Instance settings" />
      <p className="muted">Settings of this Boardroom server, shared by every company on it.</p>
      <div className="instance-top">
        <ServerCard />
        <DoctorCard />
      </div>
      <section aria-labelledby="adapters-heading">
        <h2 id="adapters-heading">Adapters</h2>
        <p className="muted">
          How agents' runs are executed. Built-in adapters ship with the server; external ones are packages installed
          here. Only the instance owner may change them.
        </p>
        <InstallAdapterForm />
        <AdapterList />
      </section>
    </div>
  );
}

function ServerCard() {
  const health = useQuery(healthQuery());
  return (
    <section className="card" aria-labelledby="server-heading">
      <h2 id="server-heading">Server</h2>
      {health.isPending && <Loading label="Loading the server's health" />}
      {health.isError && (
        <ErrorNotice
          error={health.error}
          retry={() => health.refetch()}
          title="The server's health could not be read"
        />
      )}
      {health.data && (
        <dl className="instance-facts">
          <dt>Version</dt>
          <dd className="mono">{health.data.version}</dd>
          <dt>Mode</dt>
          <dd>{health.data.deploymentMode}</dd>
          <dt>Database</dt>
          <dd>
            {health.data.database.reachable ? 'reachable' : 'unreachable'}
            {health.data.database.embedded &&
              `, embedded (${health.data.database.embedded.state}, ${health.data.database.embedded.restarts} restarts)`}
          </dd>
        </dl>
      )}
    </section>
  );
}

function DoctorCard() {
  const doctor = useQuery(doctorQuery());
  return (
    <section className="card" aria-labelledby="doctor-heading">
      <div className="card-title-row">
        <h2 id="doctor-heading">Doctor</h2>
        <button type="button" onClick={() => doctor.refetch()} disabled={doctor.isFetching}>
          {doctor.isFetching ? 'Checking…' : 'Check again'}
        </button>
      </div>
      <p className="muted">
        The checks of <code>boardroom doctor</code> run by this server. The local CLIs' checks are with their adapters
        below.
      </p>
      {doctor.isPending && <Loading label="Running the doctor checks" />}
      {doctor.isError && (
        <ErrorNotice error={doctor.error} retry={() => doctor.refetch()} title="The doctor checks could not be run" />
      )}
      {doctor.data && <CheckList checks={doctor.data.checks} label="Doctor checks" />}
    </section>
  );
}

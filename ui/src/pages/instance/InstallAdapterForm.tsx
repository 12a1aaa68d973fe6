// Install an external adapter: an npm package name (with an optional version) or an absolute path
// on the server's machine. The server stages and checks the package before anything changes, and
// answers 422 with its reason when the package is not a usable adapter.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { instanceKeys } from '../../api/keys';
import { ErrorNotice } from '../../components/ErrorNotice';

export function InstallAdapterForm() {
  const queryClient = useQueryClient();
  const [source, setSource] = useState('');
  const [version, setVersion] = useState('');
  const install = useMutation({
    mutationFn: async () => {
      const packageName = source.trim();
      return data(
        await api.POST('/api/adapters/install', {
          body: { packageName, ...(version.trim() && { version: version.trim() }) },
        }),
      );
    },
    onSuccess: async () => {
      setSource('');
      setVersion('');
      await queryClient.invalidateQueries({ queryKey: instanceKeys.adapters });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    install.reset();
    if (source.trim()) install.mutate();
  };
  const isPath = source.trim().startsWith('/');
  return (
    <form className="card install-adapter" aria-labelledby="install-heading" onSubmit={submit}>
      <h3 id="install-heading">Install an adapter</h3>
      <div className="install-row">
        <div className="field">
          <label htmlFor="adapter-source">Package name or local path</label>
          <input
            id="adapter-source"
            type="text"
            className="mono"
            placeholder="@acme/boardroom-adapter or /opt/adapters/acme"
            value={source}
            aria-describedby="adapter-source-hint"
            onChange={(event) => setSource(event.target.value)}
          />
          <span className="hint" id="adapter-source-hint">
            An absolute path is copied from the server's disk; a name is installed from the npm registry (no install
            scripts run).
          </span>
        </div>
        <div className="field">
          <label htmlFor="adapter-version">Version</label>
          <input
            id="adapter-version"
            type="text"
            className="mono"
            placeholder="latest"
            disabled={isPath}
            value={isPath ? '' : version}
            onChange={(event) => setVersion(event.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={!source.trim() || install.isPending}>
          {install.isPending ? 'Installing…' : 'Install'}
        </button>
      </div>
      {install.isError && <ErrorNotice error={install.error} title="The adapter was not installed" />}
      {install.isSuccess && (
        <p className="notice" role="status">
          Installed {install.data.label} ({install.data.type}).
        </p>
      )}
    </form>
  );
}

// Wake now and pause / resume as buttons, terminate behind the "more" menu. Each says what the server answered: a refusal (409 for a
// terminated or paused agent, say) is shown with its reason next to the buttons, never swallowed.
import { useMutation } from '@tanstack/react-query';
import { Ellipsis, Pause, Play, Trash2, Zap } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AgentDetail } from '../../queries/agents';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button, IconButton } from '../../components/ui/Button';
import { Menu, MenuItem } from '../../components/ui/Menu';
import { changeLifecycle, type Lifecycle, useRefreshAgent, wakeAgent, wakeSkipped } from './lifecycle';

export function AgentActions({ agent }: { agent: AgentDetail }) {
  const [confirmTerminate, setConfirmTerminate] = useState(false);
  const refresh = useRefreshAgent(agent.companyId);

  const lifecycle = useMutation({
    mutationFn: (action: Lifecycle) => changeLifecycle(agent.id, action),
    onSuccess: async () => {
      setConfirmTerminate(false);
      await refresh(agent.id);
    },
  });
  const wake = useMutation({ mutationFn: () => wakeAgent(agent.id) });

  const terminated = agent.status === 'terminated';
  const busy = lifecycle.isPending || wake.isPending;
  // One answer on show at a time: the last action's.
  const act = (action: Lifecycle) => {
    wake.reset();
    lifecycle.mutate(action);
  };
  return (
    <div className="agent-actions">
      <div className="page-actions">
        {agent.status === 'paused' ? (
          <Button icon={Play} disabled={busy} onClick={() => act('resume')}>
            Resume
          </Button>
        ) : (
          !terminated && (
            <Button icon={Pause} disabled={busy} onClick={() => act('pause')}>
              Pause
            </Button>
          )
        )}
        <Button
          variant="primary"
          icon={Zap}
          disabled={busy}
          loading={wake.isPending}
          onClick={() => {
            lifecycle.reset();
            wake.mutate();
          }}
        >
          {wake.isPending ? 'Waking…' : 'Wake now'}
        </Button>
        {!terminated && (
          <Menu
            align="end"
            label={`More actions for ${agent.name}`}
            trigger={<IconButton icon={Ellipsis} aria-label={`More actions for ${agent.name}`} disabled={busy} />}
          >
            <MenuItem
              icon={Trash2}
              destructive
              onSelect={() => {
                lifecycle.reset();
                wake.reset();
                setConfirmTerminate(true);
              }}
            >
              Terminate…
            </MenuItem>
          </Menu>
        )}
      </div>
      {wake.isSuccess && (
        <p className="notice" role="status">
          {wakeSkipped(wake.data) ?? (
            <>
              Woken: the run appears under <Link to={`/c/${agent.companyId}/agents/${agent.id}/runs`}>Runs</Link>.
            </>
          )}
        </p>
      )}
      {wake.isError && <ErrorNotice error={wake.error} title={`${agent.name} could not be woken`} />}
      {lifecycle.isError && !confirmTerminate && (
        <ErrorNotice error={lifecycle.error} title={`That did not work for ${agent.name}`} />
      )}
      <Dialog
        open={confirmTerminate}
        onOpenChange={(open) => {
          setConfirmTerminate(open);
          if (!open) lifecycle.reset();
        }}
        title={`Terminate ${agent.name}?`}
        description="This cannot be undone: the agent stops for good, leaves the org chart and every API key of it is revoked. Its record and history are kept."
      >
        {lifecycle.isError && <ErrorNotice error={lifecycle.error} title="The agent was not terminated" />}
        <div className="dialog-actions">
          <Button onClick={() => setConfirmTerminate(false)}>Keep the agent</Button>
          <Button
            variant="destructive"
            loading={lifecycle.isPending}
            disabled={lifecycle.isPending}
            onClick={() => lifecycle.mutate('terminate')}
          >
            {lifecycle.isPending ? 'Terminating…' : `Terminate ${agent.name}`}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

// The steps that prepare a run before its adapter sees it, one function each. A step that cannot be
// done throws a RunFailure with its code (core/run-failures.ts) and the detail; the executor ends
// the run from it in one place (run-end.ts). Nothing is started before every step has passed.
import os from 'node:os';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Agent, HeartbeatRun } from '../db/rows.ts';
import { issues, projectWorkspaces, type RunWorkspaceKind } from '../db/schema/index.ts';
import { findAgentById } from '../core/agent-access.ts';
import { RunFailure } from '../core/run-failures.ts';
import type { AdapterRegistry } from '../adapters/registry.ts';
import type { ServerAdapter } from '../adapters/types.ts';
import { adapterRunRefusal } from '../modules/adapter-registry/service.ts';
import { readSigningSecret } from '../modules/agents/signing-secret.ts';
import { isolatedWorkingDirectory, IsolationError } from '../modules/execution-workspaces/service.ts';
import { resolveEnvBindings, SecretResolutionError } from '../modules/secrets/resolve.ts';
import { materialiseAgentSkills, prepareCodexHome, SKILL_DIR_ADAPTERS } from '../modules/skills/materialise.ts';

/** The run's agent: deleted since the run was queued is agent_deleted. */
export async function findRunAgent(db: Db, run: HeartbeatRun): Promise<Agent> {
  const agent = await findAgentById(db, run.agentId);
  if (!agent) throw new RunFailure('agent_deleted', 'agent no longer exists');
  return agent;
}

/** The adapter that runs it: disabled by the operator (any replica: read from the database), or not installed here. */
export async function findRunAdapter(db: Db, registry: AdapterRegistry, run: HeartbeatRun): Promise<ServerAdapter> {
  const refusal = await adapterRunRefusal(db, registry, run.adapterType);
  const adapter = run.adapterType ? registry.get(run.adapterType) : undefined;
  if (!adapter)
    throw new RunFailure(
      'adapter_not_found',
      refusal ?? `adapter type ${run.adapterType} is not installed on this server`,
    );
  if (refusal) throw new RunFailure('adapter_disabled', refusal);
  return adapter;
}

export interface RunSecrets {
  /** adapterConfig.env with every secret reference resolved. */
  configEnv: Record<string, string>;
  /** The values that came from secrets: the run log masks them. */
  secretValues: string[];
}

/** adapterConfig.env resolved: a secret that cannot be resolved (deleted, version gone) is secret_unresolved. */
export async function resolveRunSecrets(db: Db, masterKey: Buffer, agent: Agent): Promise<RunSecrets> {
  const config = agent.adapterConfig;
  const bindings = (config.env && typeof config.env === 'object' ? config.env : {}) as Record<string, unknown>;
  let configEnv: Record<string, string>;
  try {
    configEnv = await resolveEnvBindings(db, masterKey, agent.companyId, bindings);
  } catch (err) {
    if (!(err instanceof SecretResolutionError)) throw err;
    throw new RunFailure('secret_unresolved', `could not resolve adapterConfig.env: ${err.message}`);
  }
  const secretValues = Object.entries(bindings)
    .filter(
      ([, binding]) =>
        binding !== null && typeof binding === 'object' && (binding as { type?: unknown }).type !== 'plain',
    )
    .map(([name]) => configEnv[name])
    .filter((value): value is string => value !== undefined);
  return { configEnv, secretValues };
}

/**
 * The agent's signing secret, read only for adapters that sign (http); null for the others or an
 * agent without one (the adapter says what that means for it). One that cannot be opened is
 * credentials_missing.
 */
export async function readRunCredentials(
  db: Db,
  masterKey: Buffer,
  agent: Agent,
  adapter: ServerAdapter,
): Promise<string | null> {
  if (!adapter.usesSigningSecret) return null;
  try {
    return await readSigningSecret(db, masterKey, agent);
  } catch {
    throw new RunFailure(
      'credentials_missing',
      "could not open the agent's signing secret (another master key, or a damaged record): generate a new one",
    );
  }
}

export interface RunWorkspace {
  cwd: string;
  /** Which of the places workingDirectory() chooses from the cwd is. */
  kind: RunWorkspaceKind;
  /** adapterConfig with what the workspace step added (a skillsDir). */
  adapterConfig: Record<string, unknown>;
  /** configEnv with what the workspace step added (a CODEX_HOME). */
  configEnv: Record<string, string>;
}

/**
 * The working directory (workspace_unavailable when the project's isolated worktree cannot be made)
 * and the agent's attached skills written out for adapters that take a directory
 * (skills_unavailable). An operator's explicit adapterConfig.skillsDir wins (one --add-dir), so a
 * hand-kept folder is never overwritten; Codex takes them as $CODEX_HOME/skills, and an agent's own
 * adapterConfig.env.CODEX_HOME wins likewise.
 */
export async function prepareRunWorkspace(
  db: Db,
  dataDir: string,
  run: HeartbeatRun,
  agent: Agent,
  adapter: ServerAdapter,
  configEnv: Record<string, string>,
): Promise<RunWorkspace> {
  const config = agent.adapterConfig;
  let place: { cwd: string; kind: RunWorkspaceKind };
  try {
    place = await workingDirectory(db, dataDir, agent.id, config, run.issueId);
  } catch (err) {
    if (!(err instanceof IsolationError)) throw err;
    throw new RunFailure('workspace_unavailable', err.message);
  }
  const { cwd, kind } = place;
  try {
    if (adapter.type === 'codex_local' && configEnv.CODEX_HOME === undefined) {
      const codexHome = await prepareCodexHome(db, dataDir, agent.id, run.id, configEnv.HOME ?? os.homedir());
      return {
        cwd,
        kind,
        adapterConfig: config,
        configEnv: codexHome ? { ...configEnv, CODEX_HOME: codexHome } : configEnv,
      };
    }
    if (SKILL_DIR_ADAPTERS.has(adapter.type) && typeof config.skillsDir !== 'string') {
      const skillsDir = await materialiseAgentSkills(db, dataDir, agent.id, run.id);
      return { cwd, kind, adapterConfig: skillsDir ? { ...config, skillsDir } : config, configEnv };
    }
  } catch (err) {
    throw new RunFailure(
      'skills_unavailable',
      `could not write the agent's skills: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return { cwd, kind, adapterConfig: config, configEnv };
}

/**
 * The issue's isolated worktree when its project asks for isolation, else adapterConfig.cwd, else
 * the primary workspace of the issue's project, else the agent's own directory. Isolation comes
 * first, before the agent's own cwd: it is the project's promise that no two issues share a tree.
 */
async function workingDirectory(
  db: Db,
  dataDir: string,
  agentId: string,
  config: Record<string, unknown>,
  issueId: string | null,
): Promise<{ cwd: string; kind: RunWorkspaceKind }> {
  const isolated = issueId ? await isolatedWorkingDirectory(db, dataDir, issueId) : null;
  if (isolated) return { cwd: isolated, kind: 'execution_workspace' };
  if (typeof config.cwd === 'string' && config.cwd.length > 0) return { cwd: config.cwd, kind: 'agent_cwd' };
  if (issueId) {
    const [workspace] = await db
      .select({ cwd: projectWorkspaces.cwd })
      .from(issues)
      .innerJoin(
        projectWorkspaces,
        and(eq(projectWorkspaces.projectId, issues.projectId), eq(projectWorkspaces.isPrimary, true)),
      )
      .where(eq(issues.id, issueId));
    if (workspace?.cwd) return { cwd: workspace.cwd, kind: 'project_workspace' };
  }
  const own = path.join(dataDir, 'agents', agentId, 'workspace');
  try {
    await mkdir(own, { recursive: true });
  } catch (err) {
    throw new RunFailure('workspace_unavailable', `could not create ${own}: ${(err as Error).message}`);
  }
  return { cwd: own, kind: 'agent_home' };
}

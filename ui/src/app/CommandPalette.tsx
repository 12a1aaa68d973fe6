// Ctrl/Cmd-K: jump to any page, agent or issue, or act (create an issue, switch company, and on an
// issue, agent or approval page act on it: CommandPaletteActions.tsx). Places and
// actions are filtered here; issues come from the issues list route (`q`, a small limit), asked once
// the typing pauses, and are kept whatever cmdk's own scoring thinks of a match in a description.
// Ranking: exact names first, then prefixes, then the rest (palette-rank.ts); with nothing typed, the
// last entities opened in this browser come first (palette-recent.ts), after the page's own actions.
// An action with choices (a status, an assignee) opens a second step; Escape or Backspace in its
// empty search goes back.
import * as RadixDialog from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { Fragment, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { agentsQuery } from '../queries/agents';
import { companiesQuery } from '../queries/instance';
import { issueQuery, issueSearchQuery } from '../queries/issues';
import { rankMatch } from './palette-rank';
import { entityOfPath, readRecent, rememberRecent, type RecentEntity } from './palette-recent';
import { ActionLead, type PaletteAction, type PaletteStep, usePaletteContext } from './CommandPaletteActions';
import { PLACES, placeHref } from './places';

const ISSUE_RESULTS = 8;
/** The actions' values and keywords, as their items give them to cmdk. */
const ACTIONS: [string, string[]][] = [
  ['Create issue', ['new issue', 'task']],
  ['Switch company', ['company', 'change']],
];
const DEBOUNCE_MS = 150;

interface Props {
  companyId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreateIssue: () => void;
}

export function CommandPalette({ companyId, open, onOpenChange, onCreateIssue }: Props) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState<'root' | 'companies' | PaletteStep>('root');
  const context = usePaletteContext(companyId);
  const stepChoices = page === 'status' || page === 'assignee' ? (context.steps[page] ?? []) : null;
  const stepPlaceholder = context.actions.find((action) => 'step' in action.does && action.does.step === page);
  const navigate = useNavigate();
  const q = useDebounced(search.trim(), DEBOUNCE_MS);
  const issueHits = useQuery(issueSearchQuery(companyId, q.length >= 2 ? q : '', ISSUE_RESULTS)).data;
  const agentList = useQuery(agentsQuery(companyId)).data;
  // Every agent or issue page opened (from the palette or not) becomes a recent item.
  const { pathname } = useLocation();
  useEffect(() => {
    const opened = entityOfPath(pathname);
    if (opened) rememberRecent(opened.companyId, opened.entity);
  }, [pathname]);
  useEffect(() => {
    if (!open) {
      setSearch('');
      setPage('root');
    }
  }, [open]);

  const listRef = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState('');
  const userMoved = useTopItemSelected(listRef, setSelected, search, [page, issueHits, agentList]);

  const act = (action: PaletteAction) => {
    if ('step' in action.does) {
      setSearch('');
      setPage(action.does.step);
      return;
    }
    onOpenChange(false);
    action.does.run();
  };
  const backToRoot = () => {
    setSearch('');
    setPage('root');
  };

  const createIssue = () => {
    onOpenChange(false);
    onCreateIssue();
  };
  const switchCompany = () => {
    setSearch('');
    setPage('companies');
  };

  const go = (href: string) => {
    onOpenChange(false);
    // void: the navigation's failures show in the route's error element; its promise only says when it is done.
    void navigate(href);
  };

  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className="palette"
          aria-describedby={undefined}
          onEscapeKeyDown={(event) => {
            // Escape in a second step goes back to the first; in the first it closes.
            if (page === 'root') return;
            event.preventDefault();
            backToRoot();
          }}
        >
          <RadixDialog.Title className="visually-hidden">Command palette</RadixDialog.Title>
          <Command
            label="Search pages, agents, issues and commands"
            loop
            filter={rankMatch}
            value={selected}
            onValueChange={setSelected}
            // cmdk 1.1 sorts items inside a group but cannot move its groups (it looks a group up by its
            // id where the element carries its heading): rankedGroups orders them.
            onKeyDown={(event) => {
              if (['ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(event.key)) userMoved();
              if (event.key === 'Backspace' && search === '' && page !== 'root') {
                event.preventDefault();
                backToRoot();
              }
            }}
          >
            <Command.Input
              value={search}
              onValueChange={setSearch}
              placeholder={
                page === 'companies'
                  ? 'Switch to company…'
                  : stepPlaceholder && 'step' in stepPlaceholder.does
                    ? stepPlaceholder.does.placeholder
                    : 'Go to a page, agent or issue, or type a command…'
              }
            />
            <Command.List className="palette-list" ref={listRef} onPointerMove={userMoved}>
              <Command.Empty>No match. Try an issue identifier like ABC-12, an agent's name, or a page.</Command.Empty>
              {page === 'companies' ? (
                <CompanyItems companyId={companyId} onPick={(id) => go(`/c/${id}/dashboard`)} />
              ) : stepChoices ? (
                <Command.Group heading={stepPlaceholder?.label.replace('…', '') ?? 'Choose'}>
                  {stepChoices.map((choice) => (
                    <ActionItem key={choice.value} action={choice} onSelect={() => act(choice)} />
                  ))}
                </Command.Group>
              ) : (
                <>
                  {search.trim() === '' && context.actions.length > 0 && (
                    <ActionsGroup
                      context={context.actions}
                      onAct={act}
                      onCreateIssue={createIssue}
                      onSwitchCompany={switchCompany}
                    />
                  )}
                  {search.trim() === '' && (
                    <RecentItems
                      companyId={companyId}
                      open={open}
                      onPick={(entity) => go(`/c/${companyId}/${entity.kind}s/${entity.ref}`)}
                    />
                  )}
                  {rankedGroups(search, [
                    {
                      key: 'issues',
                      best: bestOf(
                        search,
                        (issueHits ?? []).map((issue) => [`${issue.identifier} ${issue.title}`, [search]]),
                      ),
                      node: (
                        <IssueItems
                          companyId={companyId}
                          search={search}
                          onPick={(id) => go(`/c/${companyId}/issues/${id}`)}
                        />
                      ),
                    },
                    ...(search.trim() === '' && context.actions.length > 0
                      ? []
                      : [
                          {
                            key: 'actions',
                            best: bestOf(search, [
                              ...context.actions.map((action): [string, string[]] => [action.value, action.keywords]),
                              ...ACTIONS,
                            ]),
                            node: (
                              <ActionsGroup
                                context={context.actions}
                                onAct={act}
                                onCreateIssue={createIssue}
                                onSwitchCompany={switchCompany}
                              />
                            ),
                          },
                        ]),
                    {
                      key: 'pages',
                      best: bestOf(
                        search,
                        PLACES.map((place) => [`Go to ${place.label}`, place.keywords]),
                      ),
                      node: (
                        <Command.Group heading="Pages">
                          {PLACES.map((place) => (
                            <Command.Item
                              key={place.path}
                              value={`Go to ${place.label}`}
                              keywords={place.keywords}
                              onSelect={() => go(placeHref(companyId, place))}
                            >
                              {place.label}
                              {place.goKey && (
                                <span className="palette-keys">
                                  <kbd>g</kbd> <kbd>{place.goKey}</kbd>
                                </span>
                              )}
                            </Command.Item>
                          ))}
                        </Command.Group>
                      ),
                    },
                    {
                      key: 'agents',
                      best: bestOf(
                        search,
                        (agentList ?? []).map((agent) => [`Agent ${agent.name}`, [agent.role, agent.title ?? '']]),
                      ),
                      node: <AgentItems companyId={companyId} onPick={(id) => go(`/c/${companyId}/agents/${id}`)} />,
                    },
                  ])}
                </>
              )}
            </Command.List>
          </Command>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * Keeps the top item selected while results arrive (issues and agents load after the first letters
 * are typed, and reorder the groups): Enter opens what is shown first, unless the user moved the
 * selection by key or pointer since the search last changed. Returns the "user moved" signal.
 */
function useTopItemSelected(
  listRef: RefObject<HTMLDivElement | null>,
  select: (value: string) => void,
  search: string,
  [page, issues, agents]: unknown[],
): () => void {
  const moved = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search is what resets the signal.
  useEffect(() => {
    moved.current = false;
  }, [search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the search and the results are what move the top item.
  useEffect(() => {
    // After cmdk has filtered and sorted the items into the DOM.
    const frame = requestAnimationFrame(() => {
      if (moved.current) return;
      const top = listRef.current?.querySelector('[cmdk-item]:not([aria-disabled="true"])');
      const value = top?.getAttribute('data-value');
      if (value) select(value);
    });
    return () => cancelAnimationFrame(frame);
  }, [listRef, select, search, page, issues, agents]);
  return () => {
    moved.current = true;
  };
}

/** A group's best match for the search: where the group goes. */
const bestOf = (search: string, items: [string, string[]][]) =>
  Math.max(0, ...items.map(([value, keywords]) => rankMatch(value, search, keywords)));

/** The groups, best match first once something is typed (ties keep the order given). */
function rankedGroups(search: string, groups: { key: string; best: number; node: ReactNode }[]) {
  const ordered = search.trim() ? [...groups].sort((a, b) => b.best - a.best) : groups;
  return ordered.map((group) => <Fragment key={group.key}>{group.node}</Fragment>);
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function IssueItems({
  companyId,
  search,
  onPick,
}: {
  companyId: string;
  search: string;
  onPick: (issueId: string) => void;
}) {
  const q = useDebounced(search.trim(), DEBOUNCE_MS);
  // Two characters at least: one matches too much to be worth a request.
  const issues = useQuery(issueSearchQuery(companyId, q.length >= 2 ? q : '', ISSUE_RESULTS));
  if (q.length < 2) return null;
  if (issues.isError) return <ErrorNotice error={issues.error} title="Issues could not be searched" />;
  if (issues.isPending) return <Command.Loading>Searching issues…</Command.Loading>;
  return (
    <Command.Group heading="Issues">
      {issues.data.map((issue) => (
        // The search itself as a keyword: the server matched it (maybe in the description), so keep it.
        <Command.Item
          key={issue.id}
          value={`${issue.identifier} ${issue.title}`}
          keywords={[search]}
          onSelect={() => onPick(issue.id)}
        >
          <span className="mono muted">{issue.identifier}</span> {issue.title}
        </Command.Item>
      ))}
    </Command.Group>
  );
}

function AgentItems({ companyId, onPick }: { companyId: string; onPick: (agentId: string) => void }) {
  const agents = useQuery(agentsQuery(companyId));
  if (agents.isError)
    return <ErrorNotice error={agents.error} retry={() => agents.refetch()} title="Agents could not be listed" />;
  if (!agents.data?.length) return null;
  return (
    <Command.Group heading="Agents">
      {agents.data.map((agent) => (
        <Command.Item
          key={agent.id}
          value={`Agent ${agent.name}`}
          keywords={[agent.role, agent.title ?? '']}
          onSelect={() => onPick(agent.id)}
        >
          {agent.name} <span className="muted">{agent.title ?? agent.role}</span>
        </Command.Item>
      ))}
    </Command.Group>
  );
}

function CompanyItems({ companyId, onPick }: { companyId: string; onPick: (companyId: string) => void }) {
  const companies = useQuery(companiesQuery());
  // The company list has no live stream (it is not one company's); read it fresh when asked.
  const { refetch } = companies;
  useEffect(() => {
    void refetch();
  }, [refetch]);
  if (companies.isError)
    return (
      <ErrorNotice error={companies.error} retry={() => companies.refetch()} title="Companies could not be listed" />
    );
  return (
    <Command.Group heading="Companies">
      {(companies.data ?? [])
        .filter((company) => company.status !== 'archived')
        .map((company) => (
          <Command.Item key={company.id} value={`${company.name} ${company.id}`} onSelect={() => onPick(company.id)}>
            {company.name}
            {company.id === companyId && <span className="muted"> (open)</span>}
          </Command.Item>
        ))}
    </Command.Group>
  );
}

/** The last entities opened in this browser (read when the palette opens), by their names. */
function RecentItems({
  companyId,
  open,
  onPick,
}: {
  companyId: string;
  open: boolean;
  onPick: (entity: RecentEntity) => void;
}) {
  const [recent, setRecent] = useState<RecentEntity[]>([]);
  useEffect(() => {
    if (open) setRecent(readRecent(companyId));
  }, [companyId, open]);
  const agents = useQuery(agentsQuery(companyId));
  if (recent.length === 0) return null;
  return (
    <Command.Group heading="Recent">
      {recent.map((entity) =>
        entity.kind === 'agent' ? (
          <RecentAgent
            key={`agent ${entity.ref}`}
            name={agents.data?.find((agent) => agent.id === entity.ref)?.name}
            onPick={() => onPick(entity)}
          />
        ) : (
          <RecentIssue
            key={`issue ${entity.ref}`}
            companyId={companyId}
            issueRef={entity.ref}
            onPick={() => onPick(entity)}
          />
        ),
      )}
    </Command.Group>
  );
}

function RecentAgent({ name, onPick }: { name: string | undefined; onPick: () => void }) {
  // An agent no longer listed (terminated, removed) is left out.
  if (!name) return null;
  return (
    <Command.Item value={`Recent agent ${name}`} onSelect={onPick}>
      {name} <span className="muted">agent</span>
    </Command.Item>
  );
}

function RecentIssue({ companyId, issueRef, onPick }: { companyId: string; issueRef: string; onPick: () => void }) {
  const issue = useQuery(issueQuery(companyId, issueRef));
  if (!issue.data) return null;
  return (
    <Command.Item value={`Recent issue ${issue.data.identifier} ${issue.data.title}`} onSelect={onPick}>
      <span className="mono muted">{issue.data.identifier}</span> {issue.data.title}
    </Command.Item>
  );
}

/** The page's own actions first, then the ones that work anywhere. */
function ActionsGroup({
  context,
  onAct,
  onCreateIssue,
  onSwitchCompany,
}: {
  context: PaletteAction[];
  onAct: (action: PaletteAction) => void;
  onCreateIssue: () => void;
  onSwitchCompany: () => void;
}) {
  return (
    <Command.Group heading="Actions">
      {context.map((action) => (
        <ActionItem key={action.value} action={action} onSelect={() => onAct(action)} />
      ))}
      <Command.Item value="Create issue" keywords={['new issue', 'task']} onSelect={onCreateIssue}>
        Create issue <kbd>c</kbd>
      </Command.Item>
      <Command.Item value="Switch company" keywords={['company', 'change']} onSelect={onSwitchCompany}>
        Switch company…
      </Command.Item>
    </Command.Group>
  );
}

function ActionItem({ action, onSelect }: { action: PaletteAction; onSelect: () => void }) {
  return (
    <Command.Item value={action.value} keywords={action.keywords} onSelect={onSelect} className="palette-action">
      <ActionLead action={action} />
      {action.label}
    </Command.Item>
  );
}

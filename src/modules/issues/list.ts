// GET /api/companies/{companyId}/issues: filters, priority order, and ranked full-text search.
//
// Every filter is index-backed (src/db/schema/issues.ts) so list and search stay fast at 100,000
// issues a company. Definitions where SPEC only names the parameter:
// - participantAgentId: the agent created, is assigned to, or commented on the issue.
// - touchedByUserId: the user created, is assigned to, or commented on the issue, or has a
//   read/touch mark on it (issue_user_states).
// - inboxArchivedByUserId: hides issues that user archived from their inbox, until the issue
//   changes again after the archive (updatedAt later than archivedAt).
// - unreadForUserId: issues the user touched that changed after the user last read, touched or
//   commented on them.
// - q: websearch syntax over title, identifier and description (issues.search_vector) and comment
//   bodies (issue_comments.search_vector). An issue's score is its best match; comment matches
//   weigh half an issue match, an exact identifier wins outright; ties go by priority, then recency.
//   Candidates are bounded (MAX_SEARCH_CANDIDATES), and for a common word are its matches first
//   in list order (SEARCH_WALK_ROWS).
import { and, desc, eq, getTableColumns, is, isNull, ne, or, Placeholder, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { issueComments, issues, issueUserStates } from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import type { Issue } from '../../db/rows.ts';
import { boardUserForMe } from './policy.ts';
import { badRequest } from '../../core/errors.ts';
import { encodeListCursor, type IssueListKey, type ListIssuesQuery } from './schemas.ts';
import { ROUTINE_EXECUTION } from '../../core/statuses.ts';

/**
 * q ranks at most this many matching issues and this many matching comments. A term found in more
 * places than that discriminates little, and ranking every match of it would cost time linear in
 * the company's size; the bound caps the ranking work a very common term causes.
 */
const MAX_SEARCH_CANDIDATES = 200;

/**
 * A GIN read cannot stop early: it collects every match before the first row comes back (a word in
 * 15% of a 100k-issue company: 15,000 matches, 7.7 ms of database CPU), which made a common word
 * the most expensive search there is. So a word common among the first issues in list order
 * (priority, then recency) takes its candidates from there instead: a probe tests the first
 * SEARCH_PROBE_ROWS issues; when it finds the word often enough that SEARCH_WALK_ROWS issues should
 * hold MAX_SEARCH_CANDIDATES matches, those rows are read off the list index and tested one by one,
 * stopping at the last candidate (1,333 rows at 15%). Only when they do not hold enough is the text
 * index read. Measured at 100k issues (whole search statement, median of 34 runs each): a common
 * word 8.2 -> 4.2 ms; a rare one pays the probe, 0.4-0.5 ms more. A common word's candidates are
 * then its highest-priority, most recent matches (before: the first 200 the index returned, in
 * table order: the oldest).
 */
const SEARCH_PROBE_ROWS = 200;
const SEARCH_WALK_ROWS = 2000;

// Set-valued filters are resolved to an id array first (one InitPlan over their own indexes), then
// the list reads just those rows by primary key and sorts them: cost follows the size of the set,
// never the company's. (Left to itself, the planner may walk the whole priority index filtering
// row by row, which is 100x slower when the matching issues all sit at low priority.)
const idIn = (subquery: SQL): SQL => sql`${issues.id} = any(array(${subquery}))`;

/**
 * Every value a list statement depends on goes through `bind`, which makes it a placeholder. A list
 * (and a search) runs as a prepared statement, one per shape (which filters are present), built
 * once: drizzle building the SQL took half of the Node CPU of a 50-issue list (0.7 of 1.5 ms), more
 * than reading and mapping the rows.
 */
class Binder {
  readonly values: Record<string, unknown> = {};
  private count = 0;

  readonly bind = (value: unknown): SQL => {
    const name = `p${this.count++}`;
    this.values[name] = value;
    return sql`${sql.placeholder(name)}`;
  };

  limit(value: number): Placeholder {
    this.values.limit = value;
    return sql.placeholder('limit');
  }
}

type Bind = Binder['bind'];

function touchedByUser(companyId: string, userId: string, bind: Bind): SQL {
  const [company, user] = [bind(companyId), bind(userId)];
  return idIn(sql`
    select id from ${issues} where company_id = ${company} and created_by_user_id = ${user}
    union select id from ${issues} where company_id = ${company} and assignee_user_id = ${user}
    union select issue_id from ${issueComments} where company_id = ${company} and author_user_id = ${user}
    union select issue_id from ${issueUserStates} where company_id = ${company} and user_id = ${user}
      and (touched_at is not null or last_read_at is not null)`);
}

/**
 * participantAgentId as alternatives, one per way of taking part. A list reads each alternative as
 * its own stream in list order (the assignee and creator ones straight off their indexes, stopping
 * at `limit`) instead of first collecting every issue of an agent that may hold 10% of the company.
 */
function participatedByAgent(companyId: string, agentId: string, bind: Bind): SQL[] {
  const agent = bind(agentId);
  return [
    eq(issues.assigneeAgentId, agent),
    eq(issues.createdByAgentId, agent),
    idIn(
      sql`select issue_id from ${issueComments} where company_id = ${bind(companyId)} and author_agent_id = ${agent}`,
    ),
  ];
}

const USER_FILTERS = ['assigneeUserId', 'touchedByUserId', 'inboxArchivedByUserId', 'unreadForUserId'] as const;

/** A user filter's value: a user id, or `me` for the calling board user (`me`: asked by listIssues first). */
function resolveUserRef(me: string | undefined, ref: string | undefined): string | undefined {
  return ref === 'me' ? me : ref;
}

const labelled = (labelId: string, bind: Bind): SQL =>
  sql`${issues.labelIds} @> ${bind(JSON.stringify([labelId.toLowerCase()]))}::jsonb`;

/**
 * What to list: `where` holds for every row; a row must also satisfy one of `streams` (each a
 * condition the list can read in list order off an index, see orderedIds).
 */
interface Selection {
  where: SQL[];
  streams: SQL[];
  /** No row satisfies two of the streams (one per status), so they merge without removing duplicates. */
  disjoint: boolean;
}

function selection(me: string | undefined, companyId: string, query: ListIssuesQuery, bind: Bind): Selection {
  const where: SQL[] = [eq(issues.companyId, bind(companyId)), isNull(issues.hiddenAt)];
  let streams: SQL[] = [sql`true`];
  let disjoint = false;
  if (
    query.status &&
    query.status.length > 1 &&
    !query.assigneeAgentId &&
    !query.projectId &&
    !query.goalId &&
    !query.participantAgentId
  ) {
    // status IN (a, b) read as one stream per status, each off issues_company_status_idx in list order:
    // a walk of the priority index may pass every issue of the other statuses first. Not when an agent
    // or project index leads: there a status with no issues would make its stream read them all.
    streams = [...new Set(query.status)].map((status) => eq(issues.status, bind(status)));
    disjoint = true;
  } else if (query.status) {
    const [only, ...others] = query.status;
    where.push(
      only !== undefined && others.length === 0
        ? eq(issues.status, bind(only))
        : sql`${issues.status} in (${sql.join(query.status.map(bind), sql`, `)})`,
    );
  }
  if (query.assigneeAgentId) where.push(eq(issues.assigneeAgentId, bind(query.assigneeAgentId)));
  if (query.participantAgentId) {
    const ways = participatedByAgent(companyId, query.participantAgentId, bind);
    streams = streams.flatMap((stream) => ways.map((way) => allOf(stream, way)));
    disjoint = false;
  }
  const assigneeUserId = resolveUserRef(me, query.assigneeUserId);
  if (assigneeUserId) where.push(eq(issues.assigneeUserId, bind(assigneeUserId)));
  const touchedBy = resolveUserRef(me, query.touchedByUserId);
  if (touchedBy) where.push(touchedByUser(companyId, touchedBy, bind));
  const archivedBy = resolveUserRef(me, query.inboxArchivedByUserId);
  if (archivedBy) {
    where.push(sql`not exists (select 1 from ${issueUserStates} s where s.issue_id = ${issues.id} and s.user_id = ${bind(archivedBy)}
      and s.archived_at is not null and s.archived_at >= ${issues.updatedAt})`);
  }
  const unreadFor = resolveUserRef(me, query.unreadForUserId);
  if (unreadFor) {
    where.push(touchedByUser(companyId, unreadFor, bind));
    const user = bind(unreadFor);
    const lastSeen = sql`greatest(
      (select greatest(s.last_read_at, s.touched_at) from ${issueUserStates} s where s.issue_id = ${issues.id} and s.user_id = ${user}),
      (select max(c.created_at) from ${issueComments} c where c.issue_id = ${issues.id} and c.author_user_id = ${user}))`;
    where.push(sql`${issues.updatedAt} > coalesce(${lastSeen}, '-infinity'::timestamptz)`);
  }
  if (query.projectId) where.push(eq(issues.projectId, bind(query.projectId)));
  if (query.goalId) where.push(eq(issues.goalId, bind(query.goalId)));
  if (query.executionWorkspaceId) where.push(eq(issues.executionWorkspaceId, bind(query.executionWorkspaceId)));
  if (query.parentId) where.push(eq(issues.parentId, bind(query.parentId)));
  if (query.originKind) where.push(eq(issues.originKind, bind(query.originKind)));
  if (query.originId) where.push(eq(issues.originId, bind(query.originId)));
  if (!query.includeRoutineExecutions && !query.originKind && !query.originId)
    where.push(ne(issues.originKind, bind(ROUTINE_EXECUTION)));
  return { where, streams, disjoint };
}

/** drizzle's and() for conditions that are all there: the same `(a and b)`, typed as never missing. */
function allOf(...conditions: [SQL, ...SQL[]]): SQL {
  return sql`(${sql.join(conditions, sql` and `)})`;
}

// id last: issues updated in one transaction share updated_at, and a keyset needs a total order.
const listOrder = sql`priority_rank, updated_at desc nulls last, id`;
const orderColumns = [issues.priorityRank, sql`${issues.updatedAt} desc nulls last`, issues.id];
const { searchVector: _searchVector, ...issueColumns } = getTableColumns(issues);
/**
 * updated_at as text to the microsecond: a JS Date keeps milliseconds, and a cursor cut to them
 * would skip the issues updated within the same millisecond after the page's last one.
 */
const listedColumns = {
  ...issueColumns,
  listUpdatedAt: sql<string>`to_char(${issues.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

/**
 * What comes after `key` in list order, as three disjoint conditions each a range of the list
 * indexes (…, priority_rank, updated_at desc): the rest of key's updated_at tie (by id), the rest
 * of its priority, the lower priorities. One OR of them would bound the index scan only by
 * priority, reading every earlier issue of that priority again on each page.
 */
function after(key: IssueListKey, bind: Bind): SQL[] {
  const [rank, at] = [bind(key.priorityRank), sql`${bind(key.updatedAt)}::timestamptz`];
  return [
    allOf(eq(issues.priorityRank, rank), sql`${issues.updatedAt} = ${at}`, sql`${issues.id} > ${bind(key.id)}::uuid`),
    allOf(eq(issues.priorityRank, rank), sql`${issues.updatedAt} < ${at}`),
    sql`${issues.priorityRank} > ${rank}`,
  ];
}

/**
 * Ids of the first `limit` rows in list order: each stream read in list order up to `limit`, then
 * merged. labelId has no ordered index: walking the list order testing each issue's labels reads
 * the whole company when the labelled issues sit at low priority, so a labelled read is fenced
 * (offset 0) to be planned on its own: the label's set through issues_labels_idx, one heap pass,
 * sorted here. Its cost follows the size of the label's set.
 */
function orderedIds(where: SQL[], streams: SQL[], limit: SQL, bySet: boolean): SQL {
  const reads = streams.map((stream) => {
    const read = sql`select ${issues.id}, ${issues.priorityRank}, ${issues.updatedAt} from ${issues} where ${and(...where, stream)}`;
    return bySet ? sql`(${read} offset 0)` : sql`(${read} order by ${listOrder} limit ${limit})`;
  });
  return sql`(select id as hit_id, priority_rank, updated_at from (${sql.join(reads, sql` union `)}) s order by ${listOrder} limit ${limit})`;
}

/**
 * An issue as the list returns it: search_vector stays in the database (the presenter has no use
 * for it); listUpdatedAt is updatedAt to the microsecond, for the next page's cursor.
 */
export type ListedIssue = Omit<Issue, 'searchVector'> & { listUpdatedAt: string };

/** A page of the list, and the cursor of the next one when the page is full (none for a search). */
export interface IssuePage {
  issues: ListedIssue[];
  nextCursor: string | null;
}

interface ListStatement {
  execute(values: Record<string, unknown>): Promise<ListedIssue[]>;
}

/** Which filters a list has (and how many statuses): two lists of one shape have the same SQL. */
function shapeOf(query: ListIssuesQuery): string {
  return Object.entries(query)
    .filter(([name, value]) => value !== undefined && name !== 'limit')
    .map(([name, value]) =>
      Array.isArray(value)
        ? `${name}:${value.length}/${new Set(value).size}`
        : typeof value === 'boolean'
          ? `${name}:${value}`
          : name,
    )
    .sort()
    .join(',');
}

const statementsByDb = new WeakMap<object, Map<string, ListStatement>>();
const statementNames = new Map<string, string>();

/** The list statement of this shape, prepared on first use; `build` binds every value it uses. */
function listStatement(
  db: DbOrTx,
  shape: string,
  build: () => { prepare(name: string): ListStatement },
): ListStatement {
  let statements = statementsByDb.get(db);
  if (!statements) statementsByDb.set(db, (statements = new Map()));
  let statement = statements.get(shape);
  if (!statement) {
    let name = statementNames.get(shape);
    if (!name) statementNames.set(shape, (name = `issue_list_${statementNames.size}`));
    statement = build().prepare(name);
    // A value left out of `bind` would be frozen into the statement and served to every later caller.
    const params = (statement as unknown as { params: unknown[] }).params;
    if (!params.every((param) => is(param, Placeholder)))
      throw new Error(`issue list statement ${shape} holds a value that is not a placeholder`);
    statements.set(shape, statement);
  }
  return statement;
}

export async function listIssues(ctx: Ctx, companyId: string, query: ListIssuesQuery): Promise<IssuePage> {
  // The statement is prepared once per shape; the binder collects this call's values every time.
  const binder = new Binder();
  const { q } = query;
  // A search is ranked over at most 2 x MAX_SEARCH_CANDIDATES matches: one page (limit up to 500) holds them all.
  if (q && query.cursor) throw badRequest('`cursor` pages the list; a search (`q`) is one ranked page');
  // `me` stands for the calling board user (issue.filterByMe).
  const me = USER_FILTERS.some((filter) => query[filter] === 'me') ? (await boardUserForMe(ctx)).userId : undefined;
  if (q) {
    const best = bestMatches(me, companyId, { ...query, q }, binder);
    const found = await listStatement(ctx.db, shapeOf(query), () => searchQuery(ctx.db, best)).execute(binder.values);
    return { issues: found, nextCursor: null };
  }
  const chosen = selection(me, companyId, query, binder.bind);
  const { where } = chosen;
  let { streams, disjoint } = chosen;
  if (query.cursor) {
    const rest = after(query.cursor, binder.bind);
    // The keyset ranges are disjoint, so disjoint streams stay disjoint, and one stream becomes three that are.
    disjoint = disjoint || streams.length === 1;
    streams = streams.flatMap((stream) => rest.map((range) => allOf(stream, range)));
  }
  if (query.labelId) where.push(labelled(query.labelId, binder.bind));
  const limit = binder.limit(query.limit);
  const page = await listStatement(ctx.db, shapeOf(query), () =>
    listQuery(ctx.db, { common: where, streams, disjoint, bySet: Boolean(query.labelId), limit }),
  ).execute(binder.values);
  const last = page.length === query.limit ? page[page.length - 1] : undefined;
  // priorityRank is generated by a CASE with an ELSE: never null, whatever drizzle's type says.
  if (last?.priorityRank === null) throw new Error(`issue ${last.id} was listed without its priority_rank`);
  return {
    issues: page,
    nextCursor: last
      ? encodeListCursor({ priorityRank: last.priorityRank, updatedAt: last.listUpdatedAt, id: last.id })
      : null,
  };
}

/** What a page of the list reads: filters every row meets, the streams merged in list order, the page size. */
interface ListShape {
  common: SQL[];
  streams: SQL[];
  /** No issue matches two streams, so their rows merge without a pass by id. */
  disjoint: boolean;
  /** Filtered by a label (a set test no index column matches). */
  bySet: boolean;
  limit: Placeholder;
}

function listQuery(db: DbOrTx, { common, streams, disjoint, bySet, limit }: ListShape) {
  // One stream matches issues_company_priority_idx (or an index its filter names) column for column.
  if (streams.length === 1 && !bySet) {
    return db
      .select(listedColumns)
      .from(issues)
      .where(and(...common, streams[0]))
      .orderBy(...orderColumns)
      .limit(limit);
  }
  if (disjoint && !bySet) {
    // Whole rows, merged in list order (a Merge Append that stops at `limit`, so each stream reads
    // only as far as its share), with no second pass by id over the winners. Measured at 100k
    // issues, status=todo,blocked: 33 buffers and 0.3 ms of execution, against 263 and 1.3 ms when
    // the ids were merged first and their rows read again by primary key.
    const [first, second, ...others] = streams.map((stream) =>
      db
        .select(listedColumns)
        .from(issues)
        .where(and(...common, stream))
        .orderBy(...orderColumns)
        .limit(limit),
    );
    // Two at least (one took the branch above); with none, the general read below answers.
    if (first && second)
      return unionAll(first, second, ...others)
        .orderBy(listOrder)
        .limit(limit);
  }
  return db
    .select(listedColumns)
    .from(issues)
    .innerJoin(sql`${orderedIds(common, streams, sql`${limit}`, bySet)} best`, sql`best.hit_id = ${issues.id}`)
    .orderBy(...orderColumns);
}

/** The ids and ranks of the best `limit` matches; binds every value (so it runs on every call). */
function bestMatches(
  me: string | undefined,
  companyId: string,
  query: ListIssuesQuery & { q: string },
  binder: Binder,
): SQL {
  const { bind } = binder;
  const { where: common, streams } = selection(me, companyId, query, bind);
  // Candidates come from the text indexes, so every filter is a plain test on them.
  if (query.labelId) common.push(labelled(query.labelId, bind));
  const where = and(...common, or(...streams));
  const q = bind(query.q);
  // Stemmed words for prose, plus unstemmed ('simple') tokens so identifiers and codes match as typed.
  const tsq = sql`(websearch_to_tsquery('english', ${q}) || websearch_to_tsquery('simple', ${q}))`;
  // Matched as a sub-select: the planner then cannot see the words, so it estimates them as rare
  // and reads the GIN indexes. Word statistics are global: shown a word common in another company
  // but rare in this one, it preferred walking the company's rows testing each (measured: 110-160
  // ms at 100k issues, 4-5 ms through the GIN), and only a transaction turning off the other scans
  // (three more round trips a search) kept it off that. One statement also runs prepared.
  const matches = sql`(select ${tsq})`;
  const identifier = sql`upper(${q})`;
  // Every branch applies the list filters itself (on "issues"), so only matching issues are ranked.
  // Both text indexes lead with company_id (btree_gin), so words common in other companies cost nothing.
  const candidates = sql.raw(String(MAX_SEARCH_CANDIDATES));
  const hits = sql`
    with probe as materialized (
      select count(*) as matched from (select ${issues.searchVector} from ${issues} where ${where} order by ${listOrder} limit ${sql.raw(String(SEARCH_PROBE_ROWS))}) p
      where p.search_vector @@ ${matches}),
    walked as materialized (
      select id, priority_rank, updated_at, ts_rank(search_vector, ${tsq}) as rank
      from (select ${issues.id}, ${issues.priorityRank}, ${issues.updatedAt}, ${issues.searchVector} from ${issues}
        where ${where} and (select matched from probe) * ${sql.raw(String(SEARCH_WALK_ROWS / SEARCH_PROBE_ROWS))} >= ${candidates}
        order by ${listOrder} limit ${sql.raw(String(SEARCH_WALK_ROWS))}) w
      where w.search_vector @@ ${matches}
      limit ${candidates})
    select * from walked
    union all
    (select ${issues.id}, ${issues.priorityRank}, ${issues.updatedAt}, ts_rank(${issues.searchVector}, ${tsq})
      from ${issues} where ${where} and ${issues.searchVector} @@ ${matches} and (select count(*) from walked) < ${candidates}
      limit ${candidates})
    union all
    (select ${issues.id}, ${issues.priorityRank}, ${issues.updatedAt}, ts_rank(${issues.searchVector}, ${tsq}) + 100
      from ${issues} where ${where} and ${issues.identifier} = ${identifier})
    union all
    (select ${issues.id}, ${issues.priorityRank}, ${issues.updatedAt}, ts_rank(c.search_vector, ${tsq}) * 0.5
      from ${issueComments} c join ${issues} on ${issues.id} = c.issue_id
      where c.company_id = ${bind(companyId)} and c.search_vector @@ ${matches} and ${where}
      limit ${candidates})`;
  return sql`(
    select id as hit_id, max(rank) as hit_rank from (${hits}) h
    group by id, priority_rank, updated_at
    order by max(rank) desc, priority_rank, updated_at desc nulls last
    limit ${binder.limit(query.limit)})`;
}

function searchQuery(db: DbOrTx, best: SQL) {
  return db
    .select(listedColumns)
    .from(issues)
    .innerJoin(sql`${best} best`, sql`best.hit_id = ${issues.id}`)
    .orderBy(desc(sql`best.hit_rank`), issues.priorityRank, sql`${issues.updatedAt} desc nulls last`);
}

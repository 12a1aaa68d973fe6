// GET /api/issues/{issueId}/activity: the issue's activity entries, newest first, bounded by `limit`.
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { activityLog } from '../../db/schema/index.ts';
import type { Issue } from '../../db/rows.ts';
import { presentActivity, type ActivityResponse } from '../activity/present.ts';

export async function issueActivity(db: DbOrTx, issue: Issue, limit: number): Promise<ActivityResponse[]> {
  const rows = await db
    .select()
    .from(activityLog)
    .where(
      and(
        eq(activityLog.companyId, issue.companyId),
        eq(activityLog.entityType, 'issue'),
        eq(activityLog.entityId, issue.id),
      ),
    )
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(limit);
  return rows.map(presentActivity);
}

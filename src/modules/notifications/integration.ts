// The integration service: the platform (or an operator) reports project and investment changes,
// and the notifications those changes call for are written in the same transaction as the change
// itself: either both are stored or neither is. Reporting a status the record already has writes
// no notification, so the platform may retry safely.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { nowIso, type Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { msg, ValidationError, type FieldMessages } from '../../core/errors.js';
import { fieldMessage } from '../../core/fields.js';

import { findUser, referencedUser, type UserRecord } from '../users/service.js';
import {
  NotificationBuilder,
  displayName,
  isNotifyingInvestmentStatus,
  isNotifyingProjectStatus,
  type InvestmentStatus,
  type PendingNotification,
  type ProjectStatus,
  type Recipient,
} from './events.js';
import {
  findProject,
  insertRevisionRequest,
  investments,
  projects,
  type InvestmentRecord,
  type MirroredStore,
  type ProjectRecord,
  type RevisionRequestRecord,
} from './records-repository.js';
import { insertNotifications } from './repository.js';
import './messages.js';

export interface IntegrationDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  config: Pick<Config, 'APP_URL'>;
}

export interface ProjectReport {
  title: string;
  owner_id: number;
  status: ProjectStatus;
  comment?: string | null;
}

export interface InvestmentReport {
  project_id: number;
  investor_id: number;
  amount: number;
  status: InvestmentStatus;
  notes?: string | null;
}

export interface Saved<T> {
  created: boolean;
  record: T;
  /** Ids of the notifications written with this change. */
  notification_ids: string[];
}

function recipient(user: UserRecord): Recipient {
  return { id: user.id, locale: user.locale };
}

/** 422 naming each reference field whose id points at nothing; for a user, that no such user exists. */
function unknownReferences(
  missing: ReadonlyArray<readonly [field: 'project_id' | 'owner_id' | 'investor_id', id: number]>,
): ValidationError {
  const errors: FieldMessages = {};
  for (const [field, id] of missing)
    errors[field] = [field === 'project_id' ? fieldMessage('in', field) : msg('notifications.no_such_user', { id })];
  return new ValidationError(errors);
}

/**
 * Creates the record or updates it, then writes the notifications its change calls for, all in
 * the caller's transaction. The insert settles which of two concurrent creators made the row; the
 * loser locks it and updates, so it compares with the status the winner wrote. `notify` runs only
 * when the status changed (or the record is new): the same report again writes no notification.
 */
async function saveMirrored<R extends { id: number; status: string; updated_at: string }>(
  trx: Kysely<Database>,
  dialect: Dialect,
  store: MirroredStore<R>,
  fresh: R,
  notify: (record: R) => Promise<PendingNotification[]>,
): Promise<Saved<R>> {
  const created = await store.insertIfAbsent(trx, fresh);
  const previousStatus = created ? null : (await store.lockExisting(trx, fresh.id, dialect)).status;
  const record = created ? fresh : await store.update(trx, fresh);
  const pending = record.status === previousStatus ? [] : await notify(record);
  return { created, record, notification_ids: await insertNotifications(trx, pending, fresh.updated_at) };
}

const builderOf = (deps: IntegrationDeps) => new NotificationBuilder(deps.config.APP_URL);

/** PUT a project: creates it or updates it; a change into a notifying status tells the owner. */
export async function saveProject(
  deps: IntegrationDeps,
  id: number,
  report: ProjectReport,
): Promise<Saved<ProjectRecord>> {
  const { db, dialect } = deps;
  const builder = builderOf(deps);
  return db.transaction().execute(async (trx) => {
    const owner = await findUser(trx, report.owner_id);
    if (!owner) throw unknownReferences([['owner_id', report.owner_id]]);
    const now = nowIso();
    const fresh: ProjectRecord = {
      id,
      owner_id: report.owner_id,
      title: report.title,
      status: report.status,
      created_at: now,
      updated_at: now,
    };
    const { status } = report;
    return saveMirrored(trx, dialect, projects, fresh, async (record) =>
      isNotifyingProjectStatus(status)
        ? [builder.projectStatusChanged(recipient(owner), record, status, report.comment ?? null)]
        : [],
    );
  });
}

/** An administrator asks the owner for changes before approval: a request record and its notification. */
export async function requestRevision(
  deps: IntegrationDeps,
  projectId: number,
  revisionNotes: string,
): Promise<Saved<RevisionRequestRecord>> {
  const { db } = deps;
  const builder = builderOf(deps);
  return db.transaction().execute(async (trx) => {
    const project = await findProject(trx, projectId);
    if (!project) throw unknownReferences([['project_id', projectId]]);
    const owner = await referencedUser(trx, project.owner_id);
    const now = nowIso();
    const request = await insertRevisionRequest(trx, {
      project_id: projectId,
      revision_notes: revisionNotes,
      created_at: now,
    });
    const notificationIds = await insertNotifications(
      trx,
      [builder.projectRevisionRequested(recipient(owner), project, revisionNotes)],
      now,
    );
    return { created: true, record: request, notification_ids: notificationIds };
  });
}

/**
 * PUT an investment: creates it or updates it. A change into a notifying status tells the
 * investor; a change into paid also tells the project's owner that money came in.
 */
export async function saveInvestment(
  deps: IntegrationDeps,
  id: number,
  report: InvestmentReport,
): Promise<Saved<InvestmentRecord>> {
  const { db, dialect } = deps;
  const builder = builderOf(deps);
  return db.transaction().execute(async (trx) => {
    const project = await findProject(trx, report.project_id);
    const investor = await findUser(trx, report.investor_id);
    if (!project || !investor) {
      throw unknownReferences([
        ...(project ? [] : [['project_id', report.project_id] as const]),
        ...(investor ? [] : [['investor_id', report.investor_id] as const]),
      ]);
    }
    const now = nowIso();
    const values = {
      project_id: report.project_id,
      investor_id: report.investor_id,
      amount: report.amount,
      status: report.status,
      notes: report.notes ?? null,
    };
    const { status } = report;
    return saveMirrored(
      trx,
      dialect,
      investments,
      { id, ...values, created_at: now, updated_at: now },
      async (record) => {
        if (!isNotifyingInvestmentStatus(status)) return [];
        const pending = [builder.investmentStatusChanged(recipient(investor), project, record, status)];
        if (status === 'paid') {
          const owner = await referencedUser(trx, project.owner_id);
          pending.push(builder.newInvestmentReceived(recipient(owner), project, record, displayName(investor)));
        }
        return pending;
      },
    );
  });
}

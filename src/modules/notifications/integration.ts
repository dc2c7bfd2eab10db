// The integration service: the platform (or an operator) reports project and investment changes,
// and the notifications those changes call for are written in the same transaction as the change
// itself: either both are stored or neither is. Reporting a status the record already has writes
// no notification, so the platform may retry safely.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { nowIso, type Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { ValidationError, type FieldErrors } from '../../http/errors.js';
import type { Locale } from '../../http/i18n.js';
import { fieldMessage } from '../../http/validation.js';
import {
  NOTIFYING_INVESTMENT_STATUSES,
  NOTIFYING_PROJECT_STATUSES,
  NotificationBuilder,
  displayName,
  type InvestmentStatus,
  type PendingNotification,
  type ProjectStatus,
  type Recipient,
} from './events.js';
import {
  findInvestment,
  findProject,
  findRecipient,
  insertInvestmentIfAbsent,
  insertProjectIfAbsent,
  insertRevisionRequest,
  updateInvestment,
  updateProject,
  type InvestmentRecord,
  type ProjectRecord,
  type RecipientRow,
  type RevisionRequestRecord,
} from './records-repository.js';
import { insertNotifications } from './repository.js';

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

function recipient(row: RecipientRow): Recipient {
  return { id: row.id, locale: row.locale === 'fa' ? 'fa' : 'en' };
}

function unknownReference(errors: FieldErrors, field: string, locale: Locale): void {
  errors[field] = [fieldMessage(locale, 'in', field)];
}

export class IntegrationService {
  private readonly builder: NotificationBuilder;

  constructor(private readonly deps: IntegrationDeps) {
    this.builder = new NotificationBuilder(deps.config.APP_URL);
  }

  /** PUT a project: creates it or updates it; a change into a notifying status tells the owner. */
  async saveProject(id: number, report: ProjectReport, locale: Locale): Promise<Saved<ProjectRecord>> {
    const { db, dialect } = this.deps;
    return db.transaction().execute(async (trx) => {
      const owner = await findRecipient(trx, report.owner_id);
      if (!owner) {
        const errors: FieldErrors = {};
        unknownReference(errors, 'owner_id', locale);
        throw new ValidationError(errors);
      }
      const now = nowIso();
      const fresh: ProjectRecord = { id, owner_id: report.owner_id, title: report.title, status: report.status, created_at: now, updated_at: now };
      const created = await insertProjectIfAbsent(trx, fresh);
      let record = fresh;
      let previousStatus: string | null = null;
      if (!created) {
        const existing = (await findProject(trx, id, dialect, true))!;
        previousStatus = existing.status;
        record = await updateProject(trx, id, { owner_id: report.owner_id, title: report.title, status: report.status, updated_at: now });
      }
      const pending: PendingNotification[] = [];
      if (report.status !== previousStatus && NOTIFYING_PROJECT_STATUSES.includes(report.status)) {
        pending.push(this.builder.projectStatusChanged(recipient(owner), record, report.status, report.comment ?? null));
      }
      const notificationIds = await insertNotifications(trx, pending, now);
      return { created, record, notification_ids: notificationIds };
    });
  }

  /** An administrator asks the owner for changes before approval: a request record and its notification. */
  async requestRevision(projectId: number, revisionNotes: string, locale: Locale): Promise<Saved<RevisionRequestRecord>> {
    const { db, dialect } = this.deps;
    return db.transaction().execute(async (trx) => {
      const project = await findProject(trx, projectId, dialect);
      if (!project) {
        const errors: FieldErrors = {};
        unknownReference(errors, 'project_id', locale);
        throw new ValidationError(errors);
      }
      const owner = (await findRecipient(trx, project.owner_id))!;
      const now = nowIso();
      const request = await insertRevisionRequest(trx, { project_id: projectId, revision_notes: revisionNotes, created_at: now });
      const notificationIds = await insertNotifications(trx, [this.builder.projectRevisionRequested(recipient(owner), project, revisionNotes)], now);
      return { created: true, record: request, notification_ids: notificationIds };
    });
  }

  /**
   * PUT an investment: creates it or updates it. A change into a notifying status tells the
   * investor; a change into paid also tells the project's owner that money came in.
   */
  async saveInvestment(id: number, report: InvestmentReport, locale: Locale): Promise<Saved<InvestmentRecord>> {
    const { db, dialect } = this.deps;
    return db.transaction().execute(async (trx) => {
      const project = await findProject(trx, report.project_id, dialect);
      const investor = await findRecipient(trx, report.investor_id);
      if (!project || !investor) {
        const errors: FieldErrors = {};
        if (!project) unknownReference(errors, 'project_id', locale);
        if (!investor) unknownReference(errors, 'investor_id', locale);
        throw new ValidationError(errors);
      }
      const now = nowIso();
      const values = { project_id: report.project_id, investor_id: report.investor_id, amount: report.amount, status: report.status, notes: report.notes ?? null };
      const fresh: InvestmentRecord = { id, ...values, created_at: now, updated_at: now };
      const created = await insertInvestmentIfAbsent(trx, fresh);
      let record = fresh;
      let previousStatus: string | null = null;
      if (!created) {
        const existing = (await findInvestment(trx, id, dialect, true))!;
        previousStatus = existing.status;
        record = await updateInvestment(trx, id, { ...values, updated_at: now });
      }
      const pending: PendingNotification[] = [];
      if (report.status !== previousStatus && NOTIFYING_INVESTMENT_STATUSES.includes(report.status)) {
        pending.push(this.builder.investmentStatusChanged(recipient(investor), project, record, report.status));
        if (report.status === 'paid') {
          const owner = (await findRecipient(trx, project.owner_id))!;
          pending.push(this.builder.newInvestmentReceived(recipient(owner), project, record, displayName(investor)));
        }
      }
      const notificationIds = await insertNotifications(trx, pending, now);
      return { created, record, notification_ids: notificationIds };
    });
  }
}

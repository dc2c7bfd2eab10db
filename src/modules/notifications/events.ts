// The four notification events: which changes produce them, and the exact data object of each
// (field order as in the spec's table). Messages are written in the recipient's language when the
// notification is created, so a later change of locale does not rewrite old notifications.
import type { Static } from 'typebox';
import { t, type Locale } from '../../core/i18n.js';
// Types only: schemas.ts reads the status lists below at run time, so no cycle is loaded.
import type {
  InvestmentStatusChangedData,
  NewInvestmentReceivedData,
  ProjectRevisionRequestedData,
  ProjectStatusChangedData,
} from './schemas.js';
import './messages.js';

export const PROJECT_STATUSES = ['draft', 'under_review', 'approved', 'rejected', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
/** A change into one of these notifies the owner (the spec's list); draft is silent. */
export const NOTIFYING_PROJECT_STATUSES = [
  'approved',
  'rejected',
  'under_review',
  'archived',
] as const satisfies readonly ProjectStatus[];
export type NotifyingProjectStatus = (typeof NOTIFYING_PROJECT_STATUSES)[number];

export const INVESTMENT_STATUSES = ['pending', 'paid', 'active', 'completed', 'cancelled', 'refunded'] as const;
export type InvestmentStatus = (typeof INVESTMENT_STATUSES)[number];
/** A change into one of these notifies the investor (the spec's list); pending is silent. */
export const NOTIFYING_INVESTMENT_STATUSES = [
  'paid',
  'active',
  'completed',
  'cancelled',
  'refunded',
] as const satisfies readonly InvestmentStatus[];
export type NotifyingInvestmentStatus = (typeof NOTIFYING_INVESTMENT_STATUSES)[number];

export function isNotifyingProjectStatus(status: ProjectStatus): status is NotifyingProjectStatus {
  return NOTIFYING_PROJECT_STATUSES.some((notifying) => notifying === status);
}

export function isNotifyingInvestmentStatus(status: InvestmentStatus): status is NotifyingInvestmentStatus {
  return NOTIFYING_INVESTMENT_STATUSES.some((notifying) => notifying === status);
}

export const NOTIFICATION_TYPES = [
  'project_status_changed',
  'project_revision_requested',
  'new_investment_received',
  'investment_status_changed',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Amounts in messages: digit groups, Persian digits for fa (data.amount stays a plain integer). */
const AMOUNT_FORMATS: Record<Locale, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  fa: new Intl.NumberFormat('fa-IR', { maximumFractionDigits: 0 }),
};

export function formatAmount(amount: number, locale: Locale): string {
  return AMOUNT_FORMATS[locale].format(amount);
}

export interface Recipient {
  id: number;
  locale: Locale;
}

export interface ProjectFacts {
  id: number;
  title: string;
}

export interface InvestmentFacts {
  id: number;
  project_id: number;
  amount: number;
  notes: string | null;
}

/** The data object of each notification type, as its schema in schemas.ts declares it. */
export interface NotificationDataOf {
  project_status_changed: Static<typeof ProjectStatusChangedData>;
  project_revision_requested: Static<typeof ProjectRevisionRequestedData>;
  new_investment_received: Static<typeof NewInvestmentReceivedData>;
  investment_status_changed: Static<typeof InvestmentStatusChangedData>;
}

/** A notification about to be written: who gets it, its type and the data object of that type. */
export type PendingNotification = {
  [K in NotificationType]: { user_id: number; type: K; data: NotificationDataOf[K] };
}[NotificationType];

export class NotificationBuilder {
  constructor(private readonly appUrl: string) {}

  private link(path: string): string {
    return `${this.appUrl}${path}`;
  }

  projectStatusChanged(
    owner: Recipient,
    project: ProjectFacts,
    status: NotifyingProjectStatus,
    comment: string | null,
  ): PendingNotification {
    return {
      user_id: owner.id,
      type: 'project_status_changed',
      data: {
        type: 'project_status_changed',
        project_id: project.id,
        project_title: project.title,
        status,
        message: t(owner.locale, `notification.project.${status}`, { title: project.title }),
        comment,
        url: this.link(`/projects/${project.id}`),
      },
    };
  }

  projectRevisionRequested(owner: Recipient, project: ProjectFacts, revisionNotes: string): PendingNotification {
    return {
      user_id: owner.id,
      type: 'project_revision_requested',
      data: {
        type: 'project_revision_requested',
        project_id: project.id,
        project_title: project.title,
        message: t(owner.locale, 'notification.project.revision', { title: project.title }),
        revision_notes: revisionNotes,
        url: this.link(`/projects/${project.id}/edit`),
      },
    };
  }

  newInvestmentReceived(
    owner: Recipient,
    project: ProjectFacts,
    investment: InvestmentFacts,
    investorName: string,
  ): PendingNotification {
    return {
      user_id: owner.id,
      type: 'new_investment_received',
      data: {
        type: 'new_investment_received',
        investment_id: investment.id,
        project_id: project.id,
        project_title: project.title,
        amount: investment.amount,
        investor_name: investorName,
        message: t(owner.locale, 'notification.investment.received', {
          investor: investorName,
          amount: formatAmount(investment.amount, owner.locale),
          title: project.title,
        }),
        url: this.link(`/projects/${project.id}/investments`),
      },
    };
  }

  investmentStatusChanged(
    investor: Recipient,
    project: ProjectFacts,
    investment: InvestmentFacts,
    status: NotifyingInvestmentStatus,
  ): PendingNotification {
    return {
      user_id: investor.id,
      type: 'investment_status_changed',
      data: {
        type: 'investment_status_changed',
        investment_id: investment.id,
        project_title: project.title,
        amount: investment.amount,
        status,
        message: t(investor.locale, `notification.investment.${status}`, {
          amount: formatAmount(investment.amount, investor.locale),
          title: project.title,
        }),
        notes: investment.notes,
        url: this.link(`/investments/${investment.id}`),
      },
    };
  }
}

/** The name shown for a user in notifications: first and last name. */
export function displayName(user: { first_name: string; last_name: string }): string {
  return `${user.first_name} ${user.last_name}`.replace(/\s+/g, ' ').trim();
}

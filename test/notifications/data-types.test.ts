// The data of a pending notification is typed by its type's schema: the builders' output passes
// the schema at run time, and the compiler refuses data of another type or a silent status
// (the @ts-expect-error lines fail `npm run typecheck` when a refusal goes away).
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { NotificationBuilder, type PendingNotification } from '../../src/modules/notifications/events.js';
import { Notification } from '../../src/modules/notifications/schemas.js';

const builder = new NotificationBuilder('https://app.example.com');
const owner = { id: 7, locale: 'fa' as const };
const project = { id: 3, title: 'Orchard' };
const investment = { id: 11, project_id: 3, amount: 1_250_000, notes: null };

describe('typed notification data', () => {
  it('builds, for each of the four types, data its schema accepts', () => {
    const built: PendingNotification[] = [
      builder.projectStatusChanged(owner, project, 'under_review', 'Looks good'),
      builder.projectRevisionRequested(owner, project, 'Add photos'),
      builder.newInvestmentReceived(owner, project, investment, 'Ivan Investor'),
      builder.investmentStatusChanged(owner, project, investment, 'refunded'),
    ];
    expect(built.map((n) => n.type)).toEqual([
      'project_status_changed',
      'project_revision_requested',
      'new_investment_received',
      'investment_status_changed',
    ]);
    for (const notification of built) {
      expect(notification.data.type).toBe(notification.type);
      expect(
        Value.Check(Notification.properties.data, notification.data),
        JSON.stringify([...Value.Errors(Notification.properties.data, notification.data)]),
      ).toBe(true);
    }
  });

  it('refuses at compile time a silent status and data of another type', () => {
    // A silent status has no message either, so at run time the builder throws.
    // @ts-expect-error draft notifies nobody, so no builder takes it
    expect(() => builder.projectStatusChanged(owner, project, 'draft', null)).toThrow(/no message registered/);
    // @ts-expect-error pending notifies nobody
    expect(() => builder.investmentStatusChanged(owner, project, investment, 'pending')).toThrow(
      /no message registered/,
    );
    const revision = builder.projectRevisionRequested(owner, project, 'Add photos');
    // @ts-expect-error the data of a revision request under the type of a status change
    const mixed: PendingNotification = { user_id: owner.id, type: 'project_status_changed', data: revision.data };
    expect(mixed.data.type).toBe('project_revision_requested');
  });
});

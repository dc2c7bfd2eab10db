// The notifications module's messages, English and Persian: the answers of its endpoints, the
// integration API's, and the text of each notification (rendered in the recipient's language when written).
import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'notifications.not_found': { en: 'Notification not found.', fa: 'اعلان یافت نشد.' },
  'notifications.marked_read': { en: 'Notification marked as read.', fa: 'اعلان خوانده‌شده علامت خورد.' },
  'notifications.deleted': { en: 'Notification deleted.', fa: 'اعلان حذف شد.' },
  'notifications.all_marked_read': {
    en: 'All notifications marked as read.',
    fa: 'همهٔ اعلان‌ها خوانده‌شده علامت خوردند.',
  },
});

registerMessages({
  'notifications.no_such_user': { en: 'There is no user with id :id.', fa: 'کاربری با شناسهٔ :id وجود ندارد.' },
});

registerMessages({
  'integration.project_created': { en: 'Project created.', fa: 'پروژه ایجاد شد.' },
  'integration.project_updated': { en: 'Project updated.', fa: 'پروژه به‌روز شد.' },
  'integration.revision_requested': { en: 'Revision requested.', fa: 'درخواست اصلاح ثبت شد.' },
  'integration.investment_created': { en: 'Investment created.', fa: 'سرمایه‌گذاری ایجاد شد.' },
  'integration.investment_updated': { en: 'Investment updated.', fa: 'سرمایه‌گذاری به‌روز شد.' },
});

registerMessages({
  'notification.project.approved': {
    en: 'Your project ":title" has been approved.',
    fa: 'پروژهٔ «:title» شما تأیید شد.',
  },
  'notification.project.rejected': { en: 'Your project ":title" has been rejected.', fa: 'پروژهٔ «:title» شما رد شد.' },
  'notification.project.under_review': {
    en: 'Your project ":title" is now under review.',
    fa: 'پروژهٔ «:title» شما در حال بررسی است.',
  },
  'notification.project.archived': {
    en: 'Your project ":title" has been archived.',
    fa: 'پروژهٔ «:title» شما بایگانی شد.',
  },
  'notification.project.revision': {
    en: 'Changes have been requested to your project ":title" before it can be approved.',
    fa: 'پیش از تأیید پروژهٔ «:title»، اصلاحاتی از شما خواسته شده است.',
  },
  'notification.investment.received': {
    en: ':investor invested :amount in your project ":title".',
    fa: ':investor مبلغ :amount در پروژهٔ «:title» شما سرمایه‌گذاری کرد.',
  },
  'notification.investment.paid': {
    en: 'Your payment of :amount for ":title" has been received.',
    fa: 'پرداخت :amount شما برای «:title» دریافت شد.',
  },
  'notification.investment.active': {
    en: 'Your investment in ":title" is now active.',
    fa: 'سرمایه‌گذاری شما در «:title» فعال شد.',
  },
  'notification.investment.completed': {
    en: 'Your investment in ":title" has been completed.',
    fa: 'سرمایه‌گذاری شما در «:title» به پایان رسید.',
  },
  'notification.investment.cancelled': {
    en: 'Your investment in ":title" has been cancelled.',
    fa: 'سرمایه‌گذاری شما در «:title» لغو شد.',
  },
  'notification.investment.refunded': {
    en: 'Your investment in ":title" has been refunded.',
    fa: 'مبلغ سرمایه‌گذاری شما در «:title» بازگردانده شد.',
  },
});

import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'console.note_added': { en: 'Note added.', fa: 'یادداشت داخلی ثبت شد.' },
  'console.ticket_not_found': { en: 'Ticket not found.', fa: 'تیکت یافت نشد.' },
  'console.saved_reply_not_found': { en: 'Saved reply not found.', fa: 'پاسخ آماده یافت نشد.' },
  'console.saved_reply_created': { en: 'Saved reply created.', fa: 'پاسخ آماده ساخته شد.' },
  'console.saved_reply_updated': { en: 'Saved reply updated.', fa: 'پاسخ آماده به‌روزرسانی شد.' },
  'console.saved_reply_deleted': { en: 'Saved reply deleted.', fa: 'پاسخ آماده حذف شد.' },
  'console.unknown_placeholder': {
    en: 'The :attribute uses an unknown placeholder: :name.',
    fa: 'در :attribute جای‌نگهدار ناشناخته‌ای آمده است: :name.',
  },
  'console.range_order': {
    en: 'The from date must not be after the to date.',
    fa: 'تاریخ شروع نباید پس از تاریخ پایان باشد.',
  },
});

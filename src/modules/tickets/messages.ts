import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'tickets.created': { en: 'Ticket created successfully.', fa: 'تیکت با موفقیت ثبت شد.' },
  'tickets.updated': { en: 'Ticket updated successfully.', fa: 'تیکت با موفقیت به‌روزرسانی شد.' },
  'tickets.closed': { en: 'Ticket closed successfully.', fa: 'تیکت با موفقیت بسته شد.' },
  'tickets.comment_added': { en: 'Comment added successfully.', fa: 'پاسخ با موفقیت ثبت شد.' },
  'tickets.already_closed': { en: 'Ticket is already closed.', fa: 'این تیکت قبلاً بسته شده است.' },
  'tickets.closed_not_editable': { en: 'Closed tickets cannot be updated.', fa: 'تیکت بسته‌شده قابل ویرایش نیست.' },
  'tickets.attachment_not_found': { en: 'Attachment not found.', fa: 'پیوست یافت نشد.' },
  'tickets.version_changed': {
    en: 'A new message arrived since you loaded this ticket. Read it, then send again.',
    fa: 'از زمان بازکردن این تیکت پیام تازه‌ای رسیده است. آن را بخوانید و دوباره بفرستید.',
  },
  'tickets.file_missing': { en: 'The file no longer exists on the server.', fa: 'این فایل دیگر روی سرور موجود نیست.' },
  // The subject every mail of the ticket repeats (later ones with "Re: "): Gmail and Outlook thread by it.
  'tickets.mail.subject': { en: '[:code] :subject', fa: '[:code] :subject' },
  'tickets.mail.body': {
    en:
      'Hello :name,\n\nWe received your support ticket and will get back to you soon.\n\nTracking code: ' +
      ':code\nSubject: :subject\nPriority: :priority\nExpected resolution by: :deadline\n\nFollow it here: :url\n\nPlatform Support',
    fa:
      ':name گرامی،\n\nتیکت پشتیبانی شما دریافت شد و به‌زودی پاسخ داده می‌شود.\n\nکد پیگیری: :code\nموضوع: ' +
      ':subject\nاولویت: :priority\nمهلت رسیدگی: :deadline\n\nپیگیری: :url\n\nپشتیبانی پلتفرم',
  },
});

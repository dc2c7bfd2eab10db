import { registerMessages } from '../../../core/i18n.js';

registerMessages({
  'mail.reply.subject': { en: 'Re: [:code] :subject', fa: 'Re: [:code] :subject' },
  'mail.reply.body': {
    en: 'Hello :name,\n\n:message\n\n— :staff, Platform Support\n\nReply to this mail to answer, or follow the ticket here: :url\nTracking code: :code',
    fa: ':name گرامی،\n\n:message\n\n— :staff، پشتیبانی پلتفرم\n\nبرای پاسخ، به همین نامه جواب دهید یا تیکت را اینجا دنبال کنید: :url\nکد پیگیری: :code',
  },
  'mail.status.subject': { en: 'Re: [:code] :subject', fa: 'Re: [:code] :subject' },
  'mail.status.body': {
    en: 'Hello :name,\n\nYour support ticket :code is now :status.\n\nReply to this mail to add to it, or follow it here: :url\n\nPlatform Support',
    fa: ':name گرامی،\n\nوضعیت تیکت پشتیبانی :code اکنون «:status» است.\n\nبرای افزودن توضیح به همین نامه پاسخ دهید یا تیکت را اینجا دنبال کنید: :url\n\nپشتیبانی پلتفرم',
  },
  'mail.status.open': { en: 'open again', fa: 'باز' },
  'mail.status.in-progress': { en: 'being worked on', fa: 'در حال بررسی' },
  'mail.status.closed': { en: 'closed', fa: 'بسته‌شده' },
  'mail.held.body': {
    en: 'Hello :name,\n\nWe received a message from your address about ticket :code, but could not confirm that you sent it, so it was not added to the ticket. Our staff will look at it.\n\nTo add to your ticket, reply to this mail, or write on it here: :url\n\nPlatform Support',
    fa: ':name گرامی،\n\nنامه‌ای از نشانی شما دربارهٔ تیکت :code رسید، اما نتوانستیم تأیید کنیم که شما آن را فرستاده‌اید؛ بنابراین به تیکت افزوده نشد و همکاران ما آن را بررسی می‌کنند.\n\nبرای افزودن به تیکت، به همین نامه پاسخ دهید یا اینجا بنویسید: :url\n\nپشتیبانی پلتفرم',
  },
  'mail.held.body_no_reply': {
    en: 'Hello :name,\n\nWe received a message from your address about ticket :code, but could not confirm that you sent it, so it was not added to the ticket. Our staff will look at it.\n\nYou can write on your ticket here: :url\n\nPlatform Support',
    fa: ':name گرامی،\n\nنامه‌ای از نشانی شما دربارهٔ تیکت :code رسید، اما نتوانستیم تأیید کنیم که شما آن را فرستاده‌اید؛ بنابراین به تیکت افزوده نشد و همکاران ما آن را بررسی می‌کنند.\n\nمی‌توانید اینجا در تیکت خود بنویسید: :url\n\nپشتیبانی پلتفرم',
  },
  'mail.attachment_refused': {
    en: '[Attachment not accepted: :name (:reason)]',
    fa: '[پیوست پذیرفته نشد: :name (:reason)]',
  },
  'mail.refused.type': { en: 'type not allowed', fa: 'نوع مجاز نیست' },
  'mail.refused.size': { en: 'too large', fa: 'حجم بیش از حد' },
  'mail.refused.count': { en: 'too many files', fa: 'تعداد فایل‌ها بیش از حد' },
  'mail.refused.content': { en: 'content does not match its type', fa: 'محتوا با نوع فایل نمی‌خواند' },
  'mail.no_subject': { en: '(no subject)', fa: '(بدون موضوع)' },
  'mail.held_not_found': { en: 'Held message not found.', fa: 'نامهٔ نگه‌داشته یافت نشد.' },
  'mail.not_held': { en: 'This message is not waiting for review.', fa: 'این نامه در انتظار بررسی نیست.' },
  'mail.held_ticket_gone': { en: 'The ticket of this message no longer exists.', fa: 'تیکت این نامه دیگر وجود ندارد.' },
  'mail.accepted': { en: 'The message was added to its ticket.', fa: 'نامه به تیکت افزوده شد.' },
  'mail.rejected': { en: 'The message was rejected.', fa: 'نامه رد شد.' },
  'mail.received': { en: 'Message received.', fa: 'نامه دریافت شد.' },
  'mail.not_a_message': {
    en: 'The body must be a mail message (message/rfc822).',
    fa: 'بدنه باید یک نامهٔ ایمیل (message/rfc822) باشد.',
  },
});

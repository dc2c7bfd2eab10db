// The catalogue of the console's sign-in: answers, the link's page and the sign-in mail.
import { registerMessages } from '../../../core/i18n.js';

registerMessages({
  'console.sign_in_requested': {
    en: 'If the address belongs to a staff member, a sign-in link is on its way.',
    fa: 'اگر این نشانی از آنِ یکی از کارکنان باشد، پیوند ورود برایش فرستاده شد.',
  },
  'console.signed_out': { en: 'Signed out.', fa: 'از حساب خارج شدید.' },
  'console.preferences_saved': { en: 'Preferences saved.', fa: 'ترجیحات ذخیره شد.' },
  'console.session_ended': { en: 'Session ended.', fa: 'نشست پایان یافت.' },
  'console.sessions_ended': { en: 'Sessions ended.', fa: 'نشست‌ها پایان یافتند.' },
  'console.not_staff': {
    en: 'The user is not staff: give them the support or admin role first.',
    fa: 'این کاربر از کارکنان نیست: نخست نقش support یا admin را به او بدهید.',
  },
  'console.inactive': {
    en: 'The user is inactive: set active to true first.',
    fa: 'این کاربر غیرفعال است: نخست active را true کنید.',
  },
  'console.forgery': {
    en: 'This request must come from the console itself (X-CSRF-Token and Origin).',
    fa: 'این درخواست باید از خودِ میز کار بیاید (X-CSRF-Token و Origin).',
  },
  'console.role_conflict': {
    en: 'role and is_admin disagree: is_admin must be true exactly when role is admin.',
    fa: 'role و is_admin با هم نمی‌خوانند: is_admin فقط وقتی true است که role برابر admin باشد.',
  },
  'console.page_title': { en: 'Support console', fa: 'میز کار پشتیبانی' },
  'console.page_prompt': {
    en: 'Sign in to the support console as :name.',
    fa: 'ورود به میز کار پشتیبانی به نام :name.',
  },
  'console.page_button': { en: 'Sign in', fa: 'ورود' },
  'console.page_invalid': {
    en: 'This sign-in link has expired or was already used. Ask for a new one on the console’s sign-in page.',
    fa: 'این پیوند ورود منقضی شده یا پیش‌تر به کار رفته است. از صفحهٔ ورودِ میز کار پیوند تازه‌ای بخواهید.',
  },
  'console.page_cross_site': {
    en: 'This sign-in was not sent from the link’s own page. Open the link again and press the button.',
    fa: 'این ورود از صفحهٔ خودِ پیوند فرستاده نشد. پیوند را دوباره باز کنید و دکمه را بزنید.',
  },
  'console.mail_subject': { en: 'Your sign-in link to the support console', fa: 'پیوند ورود شما به میز کار پشتیبانی' },
  'console.mail_text': {
    en: 'Hello :name,\n\nOpen this link to sign in to the support console:\n\n:url\n\nIt works once, for 15 minutes. If you did not ask for it, ignore this message.',
    fa:
      ':name گرامی،\n\nبرای ورود به میز کار پشتیبانی این پیوند را باز کنید:\n\n:url\n\nاین پیوند یک بار و ' +
      'تا ۱۵ دقیقه کار می‌کند. اگر آن را نخواسته‌اید، این پیام را نادیده بگیرید.',
  },
});

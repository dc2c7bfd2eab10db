// The users module's messages, English and Persian: validation of the mirrored users and the
// admin API's answers.
import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'users.email_taken': { en: 'The email has already been taken.', fa: 'این email پیش‌تر ثبت شده است.' },
  'users.role_conflict': {
    en: 'The role and is_admin disagree: is_admin is true exactly when the role is admin.',
    fa: 'role و is_admin با هم نمی‌خوانند: is_admin فقط وقتی true است که role برابر admin باشد.',
  },
  'users.inactive': {
    en: 'The user is inactive: set active to true first.',
    fa: 'این کاربر غیرفعال است: نخست active را true کنید.',
  },
});

registerMessages({
  'users.created': { en: 'User created.', fa: 'کاربر ایجاد شد.' },
  'users.updated': { en: 'User updated.', fa: 'کاربر به‌روز شد.' },
  'users.token_revoked': { en: 'Token revoked.', fa: 'توکن باطل شد.' },
  'users.tokens_revoked': { en: 'Tokens revoked.', fa: 'توکن‌ها باطل شدند.' },
});

// The sentences of answer feedback and of the gaps, in English and Persian.
import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'assistant.message.not_found': { en: 'Message not found.', fa: 'پیام یافت نشد.' },
  'assistant.gap.not_found': { en: 'Question group not found.', fa: 'گروه پرسش یافت نشد.' },
  'assistant.gap.dismissed': { en: 'Question group dismissed.', fa: 'گروه پرسش کنار گذاشته شد.' },
  'assistant.gap.answered': {
    en: 'Question group marked answered.',
    fa: 'گروه پرسش پاسخ‌داده‌شده علامت خورد.',
  },
});

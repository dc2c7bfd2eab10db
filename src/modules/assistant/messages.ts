// The assistant's sentences in English and Persian.
import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'assistant.welcome': {
    en: 'Hello! I am the platform assistant. Ask me about investing, projects, payments and refunds, support tickets, your account, notifications or your address.',
    fa: 'سلام! من دستیار پلتفرم هستم. درباره سرمایه‌گذاری، پروژه‌ها، پرداخت و بازگشت وجه، تیکت پشتیبانی، حساب کاربری، اعلان‌ها یا آدرس از من بپرسید.',
  },
  'assistant.offline.no_match': {
    en: 'I could not find a good answer to that in my knowledge base.',
    fa: 'پاسخ مناسبی برای این پرسش در پایگاه دانشم پیدا نکردم.',
  },
  'assistant.offline.offer_escalation': {
    en: 'Would you like me to escalate this conversation to a support ticket so a person can help?',
    fa: 'می‌خواهید این گفتگو را به یک تیکت پشتیبانی ارجاع دهم تا یکی از همکاران کمک کند؟',
  },
  'assistant.offline.see_also': { en: 'Related:', fa: 'مرتبط:' },
  'assistant.suggest.escalate': { en: 'Escalate this to a support ticket', fa: 'ارجاع به تیکت پشتیبانی' },
  'assistant.error.llm_timeout': {
    en: 'The assistant took too long to answer. Your message is saved; please try again.',
    fa: 'پاسخ دستیار بیش از حد طول کشید. پیام شما ذخیره شد؛ لطفاً دوباره تلاش کنید.',
  },
  'assistant.error.llm_error': {
    en: 'The assistant could not answer right now. Your message is saved; please try again.',
    fa: 'دستیار اکنون نمی‌تواند پاسخ دهد. پیام شما ذخیره شد؛ لطفاً دوباره تلاش کنید.',
  },
  'assistant.error.server_error': {
    en: 'Something went wrong while answering. Your message is saved; please try again.',
    fa: 'هنگام پاسخ‌دادن خطایی رخ داد. پیام شما ذخیره شد؛ لطفاً دوباره تلاش کنید.',
  },
  'assistant.conversation.not_found': { en: 'Conversation not found.', fa: 'گفتگو یافت نشد.' },
  'assistant.conversation.forbidden': {
    en: 'You do not have access to this conversation.',
    fa: 'به این گفتگو دسترسی ندارید.',
  },
  'assistant.conversation.deleted': { en: 'Conversation deleted.', fa: 'گفتگو حذف شد.' },
  'assistant.conversation.archived': { en: 'Conversation archived.', fa: 'گفتگو بایگانی شد.' },
  'assistant.feedback.thanks': { en: 'Thank you for your feedback.', fa: 'از بازخورد شما سپاسگزاریم.' },
  'assistant.escalate.created': {
    en: 'Your conversation has been escalated to a support ticket.',
    fa: 'گفتگوی شما به یک تیکت پشتیبانی ارجاع شد.',
  },
  'assistant.escalate.existing': {
    en: 'This conversation was already escalated; here is its support ticket.',
    fa: 'این گفتگو پیش‌تر ارجاع شده است؛ این تیکت پشتیبانی آن است.',
  },
  'assistant.validation.context_keys': {
    en: 'The context must not have more than :max keys in all.',
    fa: 'context نباید روی هم بیشتر از :max کلید داشته باشد.',
  },
  'assistant.validation.context_key_length': {
    en: 'Each context key must be 1 to :max characters.',
    fa: 'هر کلید context باید ۱ تا :max نویسه باشد.',
  },
  'assistant.validation.context_depth': {
    en: 'The context must not be nested more than :max levels deep.',
    fa: 'context نباید بیش از :max سطح تودرتو باشد.',
  },
  'assistant.validation.context_size': {
    en: 'The context must not be larger than :max bytes as JSON.',
    fa: 'context نباید در قالب JSON بزرگ‌تر از :max بایت باشد.',
  },
  'assistant.validation.conversation_unknown': {
    en: 'The selected conversation id is invalid.',
    fa: 'conversation id انتخاب‌شده نامعتبر است.',
  },
});

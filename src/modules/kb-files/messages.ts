// The sentences of uploaded documents in English and Persian: answers of the admin routes, the
// reasons a document could not be read, and how the chat cites a document's passage.
import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'kb_files.accepted': {
    en: 'Document received; it is being read.',
    fa: 'سند دریافت شد و در حال خواندن است.',
  },
  'kb_files.already_uploaded': {
    en: 'This document was uploaded before; nothing new was stored.',
    fa: 'این سند پیش‌تر بارگذاری شده است؛ چیز تازه‌ای ذخیره نشد.',
  },
  'kb_files.multipart_only': {
    en: 'Unsupported content type: send multipart/form-data with the document in the field file.',
    fa: 'نوع محتوا پشتیبانی نمی‌شود: multipart/form-data بفرستید و سند را در فیلد file بگذارید.',
  },
  'kb_files.updated': { en: 'Document updated.', fa: 'سند به‌روز شد.' },
  'kb_files.deleted': { en: 'Document deleted.', fa: 'سند حذف شد.' },
  'kb_files.not_found': { en: 'Document not found.', fa: 'سند یافت نشد.' },
  'kb_files.cite.page': { en: ':title, page :page', fa: ':title، صفحهٔ :page' },
  'kb_files.cite.heading': { en: ':title: :heading', fa: ':title: :heading' },
  'kb_files.failure.not_pdf': {
    en: 'The file is not a PDF document, although its name ends in .pdf.',
    fa: 'این پرونده با وجود پسوند ‎.pdf سند PDF نیست.',
  },
  'kb_files.failure.not_docx': {
    en: 'The file is not a Word (DOCX) document, although its name ends in .docx.',
    fa: 'این پرونده با وجود پسوند ‎.docx سند Word ‏(DOCX) نیست.',
  },
  'kb_files.failure.encrypted': {
    en: 'The PDF is protected by a password; upload a copy without one.',
    fa: 'این PDF با گذرواژه محافظت شده است؛ نسخه‌ای بدون گذرواژه بارگذاری کنید.',
  },
  'kb_files.failure.malformed': {
    en: 'The file is damaged or malformed and could not be read.',
    fa: 'این پرونده آسیب‌دیده یا نادرست است و خوانده نشد.',
  },
  'kb_files.failure.too_many_pages': {
    en: 'The document has :pages pages; at most :max are read.',
    fa: 'این سند :pages صفحه دارد؛ حداکثر :max صفحه خوانده می‌شود.',
  },
  'kb_files.failure.too_much_text': {
    en: 'The document holds more than :max characters of text; split it into smaller documents.',
    fa: 'این سند بیش از :max نویسه متن دارد؛ آن را به چند سند کوچک‌تر تقسیم کنید.',
  },
  'kb_files.failure.no_text': {
    en: 'No text was found in the document (a scan needs text recognition first).',
    fa: 'در این سند متنی پیدا نشد (سند اسکن‌شده ابتدا باید نویسه‌خوانی شود).',
  },
  'kb_files.failure.zip_bomb': {
    en: 'The document would expand to far more than its size (a compression bomb) and was not opened.',
    fa: 'این سند هنگام بازشدن بسیار بزرگ‌تر از اندازه‌اش می‌شود (بمب فشرده‌سازی) و باز نشد.',
  },
  'kb_files.failure.encoding': {
    en: 'The text is not in UTF-8, UTF-16 or Windows-1256, or is not text at all.',
    fa: 'متن با UTF-8، UTF-16 یا Windows-1256 نوشته نشده یا اصلاً متن نیست.',
  },
  'kb_files.failure.timeout': {
    en: 'Reading the document took longer than :seconds seconds and was stopped.',
    fa: 'خواندن سند بیش از :seconds ثانیه طول کشید و متوقف شد.',
  },
  'kb_files.failure.out_of_memory': {
    en: 'Reading the document needed more memory than allowed and was stopped.',
    fa: 'خواندن سند بیش از حافظهٔ مجاز نیاز داشت و متوقف شد.',
  },
  'kb_files.failure.worker_failed': {
    en: 'The document reader stopped unexpectedly.',
    fa: 'خوانندهٔ سند به‌طور غیرمنتظره متوقف شد.',
  },
  'kb_files.failure.interrupted': {
    en: 'The server stopped while the document was being read; upload it again.',
    fa: 'سرور هنگام خواندن سند متوقف شد؛ دوباره بارگذاری کنید.',
  },
});

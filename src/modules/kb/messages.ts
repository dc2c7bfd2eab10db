import { registerMessages } from '../../core/i18n.js';

registerMessages({
  'kb.article_not_found': { en: 'Article not found.', fa: 'مقاله یافت نشد.' },
  'kb.category_not_found': { en: 'Category not found.', fa: 'دسته یافت نشد.' },
  'kb.tag_not_found': { en: 'Tag not found.', fa: 'برچسب یافت نشد.' },
  'kb.revision_not_found': { en: 'Revision not found.', fa: 'نسخه یافت نشد.' },
  'kb.article_created': { en: 'Article created.', fa: 'مقاله ایجاد شد.' },
  'kb.article_updated': { en: 'Article updated.', fa: 'مقاله به‌روزرسانی شد.' },
  'kb.article_deleted': { en: 'Article deleted.', fa: 'مقاله حذف شد.' },
  'kb.article_published': { en: 'Article published.', fa: 'مقاله منتشر شد.' },
  'kb.article_archived': { en: 'Article archived.', fa: 'مقاله بایگانی شد.' },
  'kb.article_restored': { en: 'Revision :revision restored.', fa: 'نسخهٔ :revision بازگردانده شد.' },
  'kb.stale_revision': {
    en: 'The article has changed since revision :revision; it is now at revision :current. Reload it and apply your change again.',
    fa: 'مقاله پس از نسخهٔ :revision تغییر کرده و اکنون در نسخهٔ :current است. آن را دوباره بارگیری و تغییرتان را دوباره اعمال کنید.',
  },
  'kb.key_taken': {
    en: 'An article with this key already exists in this language.',
    fa: 'مقاله‌ای با این کلید در این زبان وجود دارد.',
  },
  'kb.slug_taken': {
    en: 'The slug has already been taken in this language.',
    fa: 'این نامک در این زبان قبلاً استفاده شده است.',
  },
  'kb.body_heading': {
    en: 'The body must not contain level-2 headings (lines starting with "## "); use ### and below.',
    fa: 'متن نباید سرتیتر سطح ۲ (خطی که با «## » شروع می‌شود) داشته باشد؛ از ### و پایین‌تر استفاده کنید.',
  },
  'kb.body_comment': {
    en: 'The body must not start with an HTML comment.',
    fa: 'متن نباید با یک توضیح HTML شروع شود.',
  },
  'kb.category_unknown': { en: 'The selected category does not exist.', fa: 'دستهٔ انتخاب‌شده وجود ندارد.' },
  'kb.category_slug_taken': { en: 'The slug has already been taken.', fa: 'این نامک قبلاً استفاده شده است.' },
  'kb.category_parent_loop': {
    en: 'A category cannot be placed under itself or one of its descendants.',
    fa: 'یک دسته را نمی‌توان زیر خودش یا یکی از زیرشاخه‌هایش قرار داد.',
  },
  'kb.category_in_use': {
    en: 'The category still holds articles or subcategories; move them first.',
    fa: 'این دسته هنوز مقاله یا زیردسته دارد؛ ابتدا آن‌ها را جابه‌جا کنید.',
  },
  'kb.category_saved': { en: 'Category saved.', fa: 'دسته ذخیره شد.' },
  'kb.category_deleted': { en: 'Category deleted.', fa: 'دسته حذف شد.' },
  'kb.tag_taken': { en: 'The tag already exists.', fa: 'این برچسب از قبل وجود دارد.' },
  'kb.tag_saved': { en: 'Tag saved.', fa: 'برچسب ذخیره شد.' },
  'kb.tag_deleted': { en: 'Tag deleted.', fa: 'برچسب حذف شد.' },
});

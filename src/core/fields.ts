// Field-level validation sentences, shared by the edge (schema failures, http/validation.ts) and
// by services (their own checks): the catalogue, the rules and fieldMessage(), which gives a
// catalogue message that the edge renders in the request's language.
import { msg, type MessageRef } from './errors.js';
import { registerMessages } from './i18n.js';

registerMessages({
  'validation.required': { en: 'The :attribute field is required.', fa: 'فیلد :attribute الزامی است.' },
  'validation.min.string': {
    en: 'The :attribute must be at least :min characters.',
    fa: ':attribute باید دست‌کم :min نویسه باشد.',
  },
  'validation.max.string': {
    en: 'The :attribute must not be greater than :max characters.',
    fa: ':attribute نباید بیشتر از :max نویسه باشد.',
  },
  'validation.min.numeric': { en: 'The :attribute must be at least :min.', fa: ':attribute باید دست‌کم :min باشد.' },
  'validation.max.numeric': {
    en: 'The :attribute must not be greater than :max.',
    fa: ':attribute نباید بیشتر از :max باشد.',
  },
  'validation.min.array': {
    en: 'The :attribute must have at least :min items.',
    fa: ':attribute باید دست‌کم :min مورد داشته باشد.',
  },
  'validation.max.array': {
    en: 'The :attribute must not have more than :max items.',
    fa: ':attribute نباید بیشتر از :max مورد داشته باشد.',
  },
  'validation.in': { en: 'The selected :attribute is invalid.', fa: ':attribute انتخاب‌شده نامعتبر است.' },
  'validation.integer': { en: 'The :attribute must be an integer.', fa: ':attribute باید عدد صحیح باشد.' },
  'validation.numeric': { en: 'The :attribute must be a number.', fa: ':attribute باید عدد باشد.' },
  'validation.string': { en: 'The :attribute must be a string.', fa: ':attribute باید رشته باشد.' },
  'validation.boolean': {
    en: 'The :attribute field must be true or false.',
    fa: ':attribute باید درست یا نادرست باشد.',
  },
  'validation.array': { en: 'The :attribute must be an array.', fa: ':attribute باید آرایه باشد.' },
  'validation.object': { en: 'The :attribute must be an object.', fa: ':attribute باید شیء باشد.' },
  'validation.format': { en: 'The :attribute format is invalid.', fa: 'قالب :attribute نامعتبر است.' },
  'validation.invalid': { en: 'The :attribute is invalid.', fa: ':attribute نامعتبر است.' },
  'validation.file': { en: 'The :attribute must be a file.', fa: ':attribute باید فایل باشد.' },
  'validation.file_max': {
    en: 'The :attribute must be smaller than :max kilobytes.',
    fa: 'حجم :attribute باید کمتر از :max کیلوبایت باشد.',
  },
  'validation.mimes': {
    en: 'The :attribute must be a file of type: :values.',
    fa: ':attribute باید فایلی از نوع :values باشد.',
  },
  'validation.body': { en: 'The request body must be a JSON object.', fa: 'بدنهٔ درخواست باید یک شیء JSON باشد.' },
});

export type Rule =
  | 'required'
  | 'min.string'
  | 'max.string'
  | 'min.numeric'
  | 'max.numeric'
  | 'min.array'
  | 'max.array'
  | 'in'
  | 'integer'
  | 'numeric'
  | 'string'
  | 'boolean'
  | 'array'
  | 'object'
  | 'format'
  | 'invalid'
  | 'file'
  | 'file_max'
  | 'mimes';

/** Laravel names a field in a sentence with spaces for underscores: conversation_id -> conversation id. */
export function attributeName(field: string): string {
  return field.replace(/_/g, ' ');
}

/** The sentence for one rule broken by one field, e.g. fieldMessage('in', 'tags.0'). */
export function fieldMessage(rule: Rule, field: string, params: Record<string, string | number> = {}): MessageRef {
  return msg(`validation.${rule}`, { attribute: attributeName(field), ...params });
}

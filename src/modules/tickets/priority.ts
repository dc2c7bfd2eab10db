// The priority a ticket gets when the client sends none: keyword signals in the subject and the
// message, English and Persian. High signals win over low ones; no signal means normal.
import type { TicketPriority } from './tables.js';

export interface PriorityKeywords {
  high: string[];
  low: string[];
}

export const PRIORITY_KEYWORDS: PriorityKeywords = {
  high: [
    'urgent',
    'urgently',
    'critical',
    'emergency',
    'asap',
    'as soon as possible',
    'immediately',
    'outage',
    'security breach',
    'fraud',
    'فوری',
    'اضطراری',
    'حساس',
    'بحرانی',
    'خیلی مهم',
    'سریعا',
    'سریعاً',
    'کلاهبرداری',
  ],
  low: [
    'suggestion',
    'suggest',
    'no rush',
    'not urgent',
    'when you have time',
    'whenever',
    'nice to have',
    'feature request',
    'low priority',
    'پیشنهاد',
    'عجله ای نیست',
    'عجله‌ای نیست',
    'فوریتی ندارد',
    'در فرصت مناسب',
  ],
};

/** Folds the forms a keyword may be typed in: case, Arabic ye/kaf, zero-width joiners, spacing. */
export function normaliseForMatching(text: string): string {
  return text
    .toLowerCase()
    .replace(/\u064a/g, '\u06cc')
    .replace(/\u0643/g, '\u06a9')
    .replace(/[\u200c\u200d]/g, ' ')
    .replace(/\s+/g, ' ');
}

const LATIN_WORD = /^[a-z0-9 ]+$/;

function containsKeyword(text: string, keyword: string): boolean {
  const needle = normaliseForMatching(keyword);
  // English keywords match whole words ("suggest" must not fire on "suggestive"... nor "asap" in "kasapi").
  if (LATIN_WORD.test(needle)) {
    const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`).test(text);
  }
  return text.includes(needle);
}

export function priorityFor(
  subject: string,
  message: string,
  keywords: PriorityKeywords = PRIORITY_KEYWORDS,
): TicketPriority {
  const text = normaliseForMatching(`${subject} ${message}`);
  if (keywords.high.some((k) => containsKeyword(text, k))) return 'high';
  if (keywords.low.some((k) => containsKeyword(text, k))) return 'low';
  return 'normal';
}

// Spoken Persian as members type it, brought to the written forms the knowledge base uses, one
// word at a time: the verb prefix written together (میخوام → می خواهم), colloquial present stems
// and endings (میشه → می شود, میده → می دهد, میکنن → می کنند) and the object marker رو → را.
// Possessive and plural endings glued to a noun (کارتم, شهرمون, اعلانا) are handled where the
// index is known (KnowledgeBase.expand strips them when only the stem is indexed).

// Colloquial present stems (with their person ending) whose written form is not regular.
const IRREGULAR: Record<string, string> = {
  شه: 'شود',
  شن: 'شوند',
  شم: 'شوم',
  شی: 'شوی',
  شیم: 'شویم',
  شین: 'شوید',
  ره: 'رود',
  رن: 'روند',
  رم: 'روم',
  ری: 'روی',
  گه: 'گوید',
  گن: 'گویند',
  گم: 'گویم',
  گی: 'گویی',
  گین: 'گویید',
  ده: 'دهد',
  دن: 'دهند',
  دم: 'دهم',
  دی: 'دهی',
  دین: 'دهید',
  خوام: 'خواهم',
  خوای: 'خواهی',
  خواد: 'خواهد',
  خوایم: 'خواهیم',
  خواین: 'خواهید',
  خوان: 'خواهند',
  تونم: 'توانم',
  تونی: 'توانی',
  تونه: 'تواند',
  تونیم: 'توانیم',
  تونین: 'توانید',
  تونن: 'توانند',
  دونم: 'دانم',
  دونه: 'داند',
  دونن: 'دانند',
  یاد: 'آید',
  یان: 'آیند',
  یام: 'آیم',
  اد: 'آید',
  ام: 'آیم',
  ذارم: 'گذارم',
  ذاره: 'گذارد',
  ذارن: 'گذارند',
  ذارین: 'گذارید',
  مونه: 'ماند',
  مونم: 'مانم',
  کنه: 'کند',
  کنن: 'کنند',
  کنین: 'کنید',
};

// Whole colloquial words and their written forms.
const WORDS: Record<string, string> = {
  رو: 'را',
  ازم: 'از من',
  بهم: 'به من',
  برام: 'برای من',
  برامون: 'برای ما',
  یه: 'یک',
  چیه: 'چیست',
  کجاست: 'کجا است',
  نیومد: 'نیامد',
  نیومده: 'نیامده',
  اومد: 'آمد',
  اومده: 'آمده',
  چیکار: 'چه کار',
  چجوری: 'چطور',
  چطوری: 'چطور',
  خونه: 'خانه',
  خیابون: 'خیابان',
  بارون: 'باران',
  تموم: 'تمام',
  مونده: 'مانده',
  چقد: 'چقدر',
  اونجا: 'آنجا',
};

/** A colloquial present-tense verb without its prefix, in its written form (کنه → کند); null when it is not one. */
function presentStem(rest: string): string | null {
  const irregular = IRREGULAR[rest];
  if (irregular) return irregular;
  if (rest.length < 3) return null;
  // Third person singular -ه → -د, plural -ن → -ند, second plural -ین → -ید (فرسته → فرستد).
  if (rest.endsWith('ین')) return `${rest.slice(0, -2)}ید`;
  if (rest.endsWith('ه')) return `${rest.slice(0, -1)}د`;
  if (rest.endsWith('ن') && !rest.endsWith('ان')) return `${rest.slice(0, -1)}ند`;
  return rest;
}

// Colloquial present stems that are unambiguous without a prefix (ورشکست شه, جمع کنه); shorter
// ones such as ده or دم are also everyday nouns and are only read as verbs after a prefix.
const BARE_VERBS = new Set(['شه', 'شن', 'کنه', 'کنن', 'کنین', 'خوام', 'خواد', 'تونم', 'تونه', 'تونن', 'ذاره', 'ذارن']);

/** The written forms of one normalised Persian word (one or two words), or the word itself. */
export function formalPersian(word: string): string[] {
  const whole = WORDS[word];
  if (whole) return whole.split(' ');
  for (const prefix of ['نمی', 'می']) {
    if (word.startsWith(prefix) && word.length - prefix.length >= 2) {
      const stem = presentStem(word.slice(prefix.length));
      if (stem) return [prefix, stem];
    }
  }
  if (BARE_VERBS.has(word)) return [IRREGULAR[word]!];
  // The subjunctive ب and the negative ن before a colloquial stem (بشه → شود, نتونم → توانم, بذاره → گذارد).
  for (const prefix of ['ب', 'ن']) {
    const irregular = word.startsWith(prefix) ? IRREGULAR[word.slice(prefix.length)] : undefined;
    if (irregular) return [irregular];
  }
  return [word];
}

// The small words of Persian typed in Latin letters: what they are in Persian script (they are too
// short for the consonant key of finglish.ts to tell apart: ro, ke, az, ye), and which words show
// that a Latin message is Persian rather than English.
import { normalizeText } from './text.js';

/** Latin spellings of Persian function words, greetings and question words → the Persian word. */
export const FUNCTION_WORDS: Record<string, string> = {
  ro: 'رو',
  ra: 'را',
  o: 'و',
  va: 'و',
  ke: 'که',
  az: 'از',
  ba: 'با',
  be: 'به',
  dar: 'در',
  ta: 'تا',
  ya: 'یا',
  ye: 'یه',
  yek: 'یک',
  yeki: 'یکی',
  in: 'این',
  een: 'این',
  on: 'اون',
  oon: 'اون',
  un: 'اون',
  man: 'من',
  ma: 'ما',
  shoma: 'شما',
  to: 'تو',
  tu: 'تو',
  too: 'تو',
  tooye: 'توی',
  tuye: 'توی',
  roo: 'رو',
  ru: 'رو',
  ham: 'هم',
  age: 'اگه',
  agar: 'اگر',
  vali: 'ولی',
  ama: 'اما',
  chon: 'چون',
  baraye: 'برای',
  barye: 'برای',
  bara: 'برا',
  vase: 'واسه',
  vaseye: 'واسه',
  baram: 'برام',
  chi: 'چی',
  che: 'چه',
  chie: 'چیه',
  chiye: 'چیه',
  chia: 'چیا',
  chera: 'چرا',
  koja: 'کجا',
  kojas: 'کجاس',
  kojast: 'کجاست',
  kojaast: 'کجاست',
  kei: 'کی',
  kay: 'کی',
  key: 'کی',
  chand: 'چند',
  chanta: 'چندتا',
  cheghad: 'چقدر',
  cheghadr: 'چقدر',
  cheqad: 'چقدر',
  chqdr: 'چقدر',
  chetor: 'چطور',
  chetori: 'چطوری',
  chtori: 'چطوری',
  chetory: 'چطوری',
  chejoori: 'چجوری',
  chejuri: 'چجوری',
  chjoori: 'چجوری',
  chjuri: 'چجوری',
  chegoone: 'چگونه',
  chikar: 'چیکار',
  chekar: 'چیکار',
  chkar: 'چیکار',
  aya: 'آیا',
  kodom: 'کدوم',
  kodoom: 'کدوم',
  salam: 'سلام',
  salaam: 'سلام',
  slm: 'سلام',
  mersi: 'مرسی',
  merci: 'مرسی',
  mrc: 'مرسی',
  mamnoon: 'ممنون',
  mamnun: 'ممنون',
  mamnonam: 'ممنونم',
  lotfan: 'لطفا',
  lotfn: 'لطفا',
  alan: 'الان',
  dige: 'دیگه',
  dge: 'دیگه',
  faghat: 'فقط',
  kheili: 'خیلی',
  kheyli: 'خیلی',
  khob: 'خب',
  hanuz: 'هنوز',
  hanooz: 'هنوز',
  hnuz: 'هنوز',
  aslan: 'اصلا',
  hala: 'حالا',
  inja: 'اینجا',
  oonja: 'اونجا',
  unja: 'اونجا',
  yani: 'یعنی',
  ba3d: 'بعد',
  baad: 'بعد',
  hame: 'همه',
  hamash: 'همش',
  hamin: 'همین',
  hamoon: 'همون',
  hamun: 'همون',
  hast: 'هست',
  nist: 'نیست',
  are: 'آره',
  na: 'نه',
  bale: 'بله',
};

// Words of spoken Persian that English does not have, besides the function words: common verb
// forms and fillers. Words English also has (to, too, in, be, man, ham, age, are, na, ya, ye, on) are
// left out of the cues: they say nothing about the language.
const VERB_CUES =
  'mishe nemishe nmishe shod nashod shode shodam mikham mikhaam mkham mikhay mikhad mikhan mikhayn mikhain mikhastam ' +
  'konam konm knm kon bokon bekonam mikonam mikone mikonin mikonid nemikone kardam kardm kard nakard ' +
  'daram dare darin darid nadaram nadare dashtam bayad baiad mitoonam mitunam mitunm nemitoonam nemitunam mitoone ' +
  'midin midid mide nemide begam begid begin bego begoo bgo bedam bedin bedid bde begiram bezaram bezanam bezan ' +
  'beram biam biad miad nemiad nmiad nayomad nayoomad omad oomad rafte raft miram mire sham beshe ' +
  'hastam hastin hastid bood boodam nabood mibinam nemibinam didam zadam zadm gereftam dadam gozashtam rikhtam ' +
  'chetorin khoobi khaste nabashid yadam dari darid mituni mitooni kardi didi shenidi begi bedi nadari nemidoonam nemidunam';

const ENGLISH_WORDS = new Set(
  (
    'the a an is are was were i my me you your it its this that these those what how why when where who which ' +
    'do does did can could should would will have has had of for with from by about and or but not if there here ' +
    'we our they them he she his her get got please thanks hi hello hey'
  ).split(' '),
);

const CUES = new Set([
  ...Object.keys(FUNCTION_WORDS).filter(
    (w) =>
      !['to', 'too', 'in', 'be', 'man', 'ham', 'age', 'are', 'na', 'ya', 'ye', 'on', 'a', 'o', 'ma', 'key'].includes(w),
  ),
  ...VERB_CUES.split(/\s+/),
]);

const LATIN_LETTERS = /[a-z]/g;
const PERSIAN_LETTERS = /[\u0600-\u06FF]/g;

/**
 * Persian typed in Latin letters: more Latin than Persian letters, and more words of spoken Persian
 * (chetori, mikham, ro... see CUES) than English function words (the, my, is...).
 */
export function isFinglish(message: string): boolean {
  const text = normalizeText(message);
  const latin = text.match(LATIN_LETTERS)?.length ?? 0;
  const persian = text.match(PERSIAN_LETTERS)?.length ?? 0;
  if (latin <= persian) return false;
  let cues = 0;
  let english = 0;
  for (const token of text.split(/[^a-z0-9']+/)) {
    // Vowels typed twice for length (miaad, kojaaa) are one.
    if (CUES.has(token) || CUES.has(token.replace(/([aeiou])\1+/g, '$1'))) cues += 1;
    else if (ENGLISH_WORDS.has(token)) english += 1;
  }
  return cues > 0 && cues > english;
}

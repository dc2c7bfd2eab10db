// The parts of a long message: members write a greeting, a story and the question somewhere in the
// middle, or two questions at once ("how do i open a ticket? and another thing, my refund…"). A
// message is cut into sentences, and a sentence again where a connective starts a new question
// ("…, and after that how do i close the account"); the parts that ask something are its questions.
import { normalizeText } from './text.js';

// Words that start or carry a question, normalised; a part with one of them (or a question mark) asks something.
const QUESTION_WORDS = new Set(
  (
    'how what when where why which who whats hows wheres whens ' +
    'چطور چطوری چجوری چگونه کی کجا کجاست چرا چه چی چیه چیست چند چقدر چقد آیا میشه میتونم میتونیم باید کدوم کدام ' +
    // Persian often asks without a question word or mark: if…, or not, is it…
    'مگه یعنی اگه اگر یا نه لازمه هست نیست داره'
  )
    .split(' ')
    .map((w) => normalizeText(w)),
);

// Connectives that open a further question inside a sentence, before a question word.
const CONNECTIVES =
  /,?\s+(?:and also|and then|and after that|and|also|plus|then|و اینکه|و این که|و بعد|بعدش|همچنین|ضمنا|یه سوال دیگه|یک سوال دیگر|و)\s+(?=\S)/giu;

/** The words of a part, normalised. */
const tokens = (part: string): string[] =>
  normalizeText(part)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

// English asks by putting the verb before its subject ("is it…", "can i still cancel").
const INVERTED = new Set('can could is are do does did should will would may am'.split(' '));
const SUBJECTS = new Set('i you we it he she they my your our the this that there someone anyone'.split(' '));

// In a sentence closed by a full stop, these tell rather than ask: the Persian words that ask only
// by tone ("…تو لیست نیست."), چند, which there counts rather than asks ("چند تا پروژه دارم.", a few
// projects), and an English question word right before its subject ("when i fill the address, i
// pick the province.").
const TELLING = new Set('مگه یعنی اگه اگر یا نه لازمه هست نیست داره چند'.split(' ').map((w) => normalizeText(w)));
const CLAUSE_SUBJECTS = new Set('i we you he she they it'.split(' '));
/** A part or sentence closed by a full stop (or !): one that tells, where TELLING and CLAUSE_SUBJECTS apply. */
const CLOSED_BY_STOP = /[.!]\s*$/;

/**
 * True when the part asks something: a question mark, a question word, or an English verb before
 * its subject; in a part closed by a full stop, not a word that tells there (TELLING, CLAUSE_SUBJECTS).
 */
export function asksSomething(part: string): boolean {
  if (/[?؟]/.test(part)) return true;
  const words = tokens(part);
  const told = CLOSED_BY_STOP.test(part);
  return (
    words.some(
      (t, i) => QUESTION_WORDS.has(t) && !(told && (TELLING.has(t) || CLAUSE_SUBJECTS.has(words[i + 1] ?? ''))),
    ) || words.some((w, i) => INVERTED.has(w) && SUBJECTS.has(words[i + 1] ?? ''))
  );
}

/** True when the part asks with a question word of its own (not only a mark). */
const asksByWord = (part: string): boolean => tokens(part).some((t) => QUESTION_WORDS.has(t));

/**
 * The parts of a message: its sentences (cut at . ! ? ؟ ; ؛ and line breaks), each cut again at a
 * connective followed by a question word; parts of fewer than three words join the part before.
 */
export function messageParts(message: string): string[] {
  const sentences = message.split(/(?<=[.!?؟;؛\n])\s*/u).filter((s) => s.trim() !== '');
  const parts: string[] = [];
  for (const sentence of sentences) {
    // A clause cut from a sentence closed by a full stop keeps the stop: it tells as the sentence does (asksSomething).
    const told = CLOSED_BY_STOP.test(sentence) ? '.' : '';
    let start = 0;
    for (const match of sentence.matchAll(CONNECTIVES)) {
      const next = sentence.slice(match.index! + match[0].length);
      const first = tokens(next)[0];
      if (first === undefined) continue;
      // Persian puts the question word later ("پروژه رو چطور ثبت کنم و بررسیتون چقدر طول میکشه"):
      // a clause that asks with a word of its own, then a connective and another clause that asks with
      // one of its own, are two questions; a clause with only a question mark goes on with the same
      // one ("میشه درستش کنیم و دوباره ثبت کنیم؟": fix it and send it again).
      const before = sentence.slice(start, match.index!);
      const twoClauses = asksByWord(before) && asksByWord(next) && tokens(next).length >= 3;
      if (!(QUESTION_WORDS.has(first) || INVERTED.has(first) || twoClauses)) continue;
      parts.push(sentence.slice(start, match.index!) + told);
      start = match.index! + match[0].length;
    }
    parts.push(sentence.slice(start));
  }
  const joined: string[] = [];
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
    if (joined.length > 0 && tokens(part).length < 3) joined[joined.length - 1] += ` ${part}`;
    else joined.push(part);
  }
  return joined;
}

// Words that point outside the message, to the page or to what was just said ("where do i get a
// pdf of this", "can u guys add it", "فاکتور اینو کجا بگیرم", "همونو میشه دوباره باز کرد").
const REFERRING = new Set(
  (
    'this these those it its here them one same then mine yours ' +
    'این اینو اینا ازینا اینجا اینجاش همین همینو همینا اون اونو اونا ازونا اونجا ازش بهش توش روش بالاش تهش همون همونو یکی بعدش ' +
    // Spoken Persian points without a pronoun: like this, all of them, where is it.
    'اینجوری اینطوری همینجوری اونجوری همرو همشو همشون کو'
  )
    .split(' ')
    .map((w) => normalizeText(w)),
);
// Words that open a message by going on from the one before ("and completed?", "پس سود این ماهم…").
const CONTINUING = new Set(
  ['and', 'so', 'ok', 'then', 'also', 'و', 'پس', 'حالا', 'بعد', 'اگه'].map((w) => normalizeText(w)),
);

/**
 * True when the message points outside itself: a word such as this, it, here, اینجا, ازش, a
 * Persian object ending on a word (سودشو, فرقشون), or an opening that goes on from the last
 * message (and…, پس…, حالا…). Such a message leans on its page and conversation in full; one that
 * says everything itself gets only part of their weight (Reading.credit).
 */
export function refersToContext(message: string): boolean {
  const words = tokens(message);
  if (words.length > 0 && CONTINUING.has(words[0]!)) return true;
  return words.some(
    (w, i) =>
      REFERRING.has(w) ||
      (w === 'that' && pointsBack(words, i)) ||
      (/[\u0600-\u06FF]{2,}(شو|شون|اشو|اشون)$/u.test(w) && w.length >= 4),
  );
}

// Words before which "that" points at something said ("in that case", "for that payment"), where
// it cannot join a clause to a noun as it does in "a fee that covers the cost".
const BEFORE_POINTING = new Set('in for of on about with from after before like to at by than'.split(' '));

/** True when the "that" at i points back: it opens or ends the message, or follows a preposition. */
const pointsBack = (words: string[], i: number): boolean =>
  i === 0 || i === words.length - 1 || BEFORE_POINTING.has(words[i - 1]!);

/**
 * The number of words in a message (letters and digits, normalised): a message of very few words
 * ("cant get in", "کده نیومد") says too little to stand alone, so it leans on its page and
 * conversation as one that points outside itself does (Reading.shortWords).
 */
export function wordCount(message: string): number {
  return tokens(message).length;
}

// Greetings, thanks and assent: a message of only these asks nothing, wherever it is written.
const COURTESY = new Set(
  (
    'hi hello hey hiya thanks thank you thx ty ok okay k cool great good morning afternoon evening bye yes no ' +
    'سلام درود مرسی ممنون ممنونم متشکرم سپاس باشه اوکی خداحافظ بله آره نه صبح بخیر عصر شب وقت خسته نباشید'
  )
    .split(' ')
    .map((w) => normalizeText(w)),
);

/** True when the message is only greetings, thanks or assent ("thanks!", "سلام وقت بخیر"), or has no words at all. */
export function onlyCourtesy(message: string): boolean {
  return tokens(message).every((word) => COURTESY.has(word));
}

// Subjects the platform's help never covers, though members ask about them in its words (a fee to
// submit a project, a loan to invest, tax on the returns, a support phone number, a referral
// bonus): a short message that names one, answered by a passage that does not name it, is
// answered "I don't know". Written from the domain, not from any question set. A subject is a word
// or a phrase ("phone number": the help speaks of phones and of numbers, never of a number to call).
import type { Locale } from '../../core/i18n.js';
import type { Passage } from './knowledge-files.js';
import { normalizeText } from './text.js';

const SUBJECTS: Record<Locale, string[]> = {
  en: [
    // Money the platform does not deal in: fees, credit, tax, insurance, interest, other assets.
    'fee, fees, commission, commissions, loan, loans, lend, lending, borrow, borrowing, mortgage',
    'tax, taxes, taxed, collateral, insurance, insured, interest, dividend, dividends',
    'crypto, cryptocurrency, bitcoin, stock market, exchange rate, fixed return, fixed returns',
    // Rewards and offers it does not run.
    'referral, referrals, bonus, bonuses, discount, discounts, coupon, coupons, promo, cashback, loyalty',
    // Channels and people it does not offer: a number to call, messengers, offices, jobs.
    'hotline, phone number, call support, whatsapp, telegram, instagram, office, offices, hiring, careers',
    'become a reviewer, be a reviewer, join the reviewers',
    // The law around it.
    'regulator, regulates, regulated, license, licence, licensed, sharia, halal, inherit, inheritance, inherited',
    // What the product does not have.
    'age, webhook, webhooks, auto invest, autoinvest, automatic, dark mode, rate limit, per minute, per second, per hour',
    'play store, app store, jointly, joint account, company, companies',
    '2fa, two factor, authenticator, newsletter, live chat, excel, csv, sdk, secondary market, resell, resale',
    'affiliate, affiliates, gift, gifts, voucher, vouchers, audit, audited, auditor, foreigner, foreigners, citizenship',
    // Members the platform does not serve on their own, and things it does not do for anyone.
    'child, children, kid, kids, son, daughter, minor, minors, teenager, certificate, certificates',
    'advertise, advertising, advertisement, vote, voting, windows, in person, headquarters, lawyer, central bank',
    'helpline, call center, call centre, support number, contact number, invite a friend, invite friends, refer a friend',
    'sell my investment, sell my share, sell my shares, sell my stake, usdt, tether, ethereum, islamic, subscription, vat',
    'escrow, trustee, custodian, founder, founders, ceo, founded, revenue, gold, real estate, paypal, visa, mastercard',
    'die, death, privacy policy, terms of service, terms and conditions, ombudsman, internship, job, jobs',
    'installment, installments, instalment, instalments, demo, trial, student, students, donation, donate, charity',
    'anonymous, anonymously, upcoming',
    // Calling, reviewing for the platform, handing an investment on, sharing an account, investing on a schedule.
    'do i call, can i call, call you, call someone, as a reviewer, become a project reviewer, be a project reviewer',
    'transfer my investment, transfer my investments, give my investment, business account, share one account',
    'share an account, use one account, recurring, monthly investment, monthly investing, invest every month',
  ],
  fa: [
    'کارمزد, وام, قرض, مالیات, مالیاتی, وثیقه, بیمه, بهره, سود ثابت, سود تضمینی, نرخ ارز, بورس, کریپتو, بیتکوین',
    'معرف, پاداش, جایزه, تخفیف',
    'شماره تلفن, شماره تماس, زنگ بزنم, زنگ بزنیم, واتساپ, اینستاگرام, استخدام, حضوری',
    'داور بشم, داور شم, داور شدن, جزو داورا, جزو داورای, جزو داورها, جزو داوران',
    'مجوز, شرعی, ارث, وراث',
    'سن, تم تیره, حالت شب, در دقیقه, در ثانیه, تعداد درخواست, خودکار, بفروشم, بفروشیم, فروختن',
    'دو مرحله ای, دومرحله ای, خبرنامه, چت زنده, چت آنلاین, اکسل, بازار ثانویه, همکاری در فروش, هدیه, حسابرسی, تابعیت',
    'بچه, پسر, دختر, فرزند, زیر 18, گواهی, تبلیغ, تبلیغات, رای بدم, ویندوز, دفتر مرکزی, وکیل, بانک مرکزی',
    'مرکز تماس, شماره پشتیبانی, تتر, اتریوم, اسلامی',
    'حساب امانی, موسس, مدیرعامل, طلا, مسکن, ویزا, مسترکارت, پی پال, پیپال, فوت, اقساط, قسطی, دمو, آزمایشی',
    'دانشجو, دانشجویی, خیریه, ناشناس, کارآموزی, شغل',
  ],
};

const words = (text: string): string[] =>
  normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Per language: each subject as its words in order. */
const OUTSIDE_SUBJECTS: Record<Locale, string[][]> = {
  en: SUBJECTS.en.flatMap((line) => line.split(',')).map(words),
  fa: SUBJECTS.fa.flatMap((line) => line.split(',')).map(words),
};
// Persian endings a subject's last word may carry (کارمزدش, وامشون); not ی, which makes another word of some.
const SUBJECT_ENDINGS = ['', 'ش', 'م', 'ت', 'ها', 'های', 'شو', 'مو', 'تو', 'شون', 'مون', 'تون', 'و', 'رو'];
/** Messages longer than this tell a story, where a subject is often only mentioned in passing. */
const SUBJECT_WORDS = 25;
const passageWords = new WeakMap<Passage, string>();

/** Per language: the subjects by their first word (a subject of one word: the word without an ending). */
const BY_FIRST_WORD: Record<Locale, Map<string, string[][]>> = {
  en: byFirstWord(OUTSIDE_SUBJECTS.en),
  fa: byFirstWord(OUTSIDE_SUBJECTS.fa),
};

function byFirstWord(subjects: string[][]): Map<string, string[][]> {
  const map = new Map<string, string[][]>();
  for (const subject of subjects) {
    const list = map.get(subject[0]!);
    if (list) list.push(subject);
    else map.set(subject[0]!, [subject]);
  }
  return map;
}

/** True when the token is the word, or the word with one of the endings. */
const withEnding = (token: string, word: string): boolean =>
  token.startsWith(word) && SUBJECT_ENDINGS.includes(token.slice(word.length));

/**
 * The subjects the tokens name, each as its words typed where it first stands: its words in order,
 * the last one perhaps with an ending. Only the subjects starting with a token's word are tried.
 */
function namedSubjects(tokens: string[], lang: Locale): string[] {
  const typed = new Map<string[], string>();
  for (let at = 0; at < tokens.length; at += 1) {
    const token = tokens[at]!;
    for (const ending of SUBJECT_ENDINGS) {
      if (!token.endsWith(ending)) continue;
      for (const subject of BY_FIRST_WORD[lang].get(token.slice(0, token.length - ending.length)) ?? []) {
        if (typed.has(subject)) continue;
        const last = subject.length - 1;
        if (last === 0) typed.set(subject, token);
        else if (
          ending === '' &&
          at + last < tokens.length &&
          subject.every((word, i) => (i === last ? withEnding(tokens[at + i]!, word) : tokens[at + i] === word))
        )
          typed.set(subject, tokens.slice(at, at + last + 1).join(' '));
      }
    }
  }
  return [...typed.values()];
}

/** True when a short message names a subject the help never covers and the passage does not name it. */
export function namesOutsideSubject(message: string, passage: Passage): boolean {
  const tokens = words(message);
  if (tokens.length > SUBJECT_WORDS) return false;
  const typed = namedSubjects(tokens, passage.lang);
  if (typed.length === 0) return false;
  let own = passageWords.get(passage);
  if (!own) {
    own = ` ${words([passage.question, ...passage.alternates, passage.answer].join(' ')).join(' ')} `;
    passageWords.set(passage, own);
  }
  // The passage speaks of the subject when it holds the message's words for it as typed.
  return typed.some((t) => !own.includes(` ${t} `));
}

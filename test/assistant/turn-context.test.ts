// What around a message weighs on it: a clear question on another subject is answered by its own
// passage whatever the conversation was about or the page it is asked on, a vague follow-up still
// leans on the conversation, and an earlier message the chat could not answer still tells what the
// conversation is about.
import { describe, expect, it } from 'vitest';
import { bundledKnowledgeBase } from '../../src/modules/assistant/knowledge.js';
import { refersToContext } from '../../src/modules/assistant/message-parts.js';
import { DEFAULT_THRESHOLDS } from '../../src/modules/assistant/retrieval.js';
import { aroundWhatItSays } from '../../src/modules/assistant/turn-context.js';
import { DEFAULT_READING, type Turn, understand } from '../../src/modules/assistant/understanding.js';

const kb = bundledKnowledgeBase();
const first = (turn: Turn, reading = DEFAULT_READING) => understand(kb, turn, { reading }).passages[0]?.id;
/** The reading before a clear message could stand apart from its context. */
const leaning = { ...DEFAULT_READING, apartConfidence: Number.POSITIVE_INFINITY };

describe('a clear question on another subject', () => {
  const documents = 'what documents do i need to upload when i submit my project';
  const receipt = 'how do i download a receipt for the payment i made last week';

  it('is answered by its own passage after an answer about something else', () => {
    const earlier = [{ message: 'how do i reset my password', sources: ['accounts.password'] }];
    expect(first({ message: documents, earlier })).toBe('projects.submit');
    // Read with the conversation, the topic just answered came first.
    expect(first({ message: documents, earlier }, leaning)).toBe('accounts.register');
  });

  it('is answered by its own passage on a page that is about something else', () => {
    const page = { module: 'projects', route: '/projects/12' };
    expect(first({ message: receipt, page })).toBe('payments.receipt');
    expect(first({ message: receipt, page }, leaning)).toBeUndefined();
    const notifications = { module: 'notifications', route: '/notifications' };
    expect(first({ message: documents, page: notifications })).toBe('projects.submit');
  });

  it('is answered by its own passage however few its words', () => {
    const earlier = [{ message: 'how long does a refund take', sources: ['payments.refund-time'] }];
    expect(first({ message: 'how do i close my account', earlier })).toBe('accounts.delete');
    expect(first({ message: 'how do i close my account', earlier }, leaning)).toBe('payments.refund-time');
    const password = [{ message: 'i forgot my password', sources: ['accounts.password'] }];
    const methods = understand(kb, { message: 'which payment methods are accepted', earlier: password });
    expect(methods.passages.map((p) => p.id)).toEqual(['payments.methods']);
  });

  it('keeps the context of a few words whose best passages are close', () => {
    const read = (message: string, lang: 'en' | 'fa', sources: string[]) => {
      const turn = { message, earlier: [{ message: 'x', sources }] };
      return aroundWhatItSays(kb, kb.match(message, lang, 50), turn, DEFAULT_THRESHOLDS[lang], DEFAULT_READING);
    };
    // Confident alone, but returns, refund time and a double charge are all close: still a follow-up.
    expect(read('پولم کی برمیگرده؟', 'fa', ['accounts.password']).earlier).toHaveLength(1);
    expect(read('how do i close my account', 'en', ['payments.refund-time']).earlier).toBeUndefined();
  });

  it('still leaves a vague follow-up to the conversation', () => {
    const earlier = [{ message: 'i was charged twice for one investment', sources: ['payments.double-charge'] }];
    expect(first({ message: 'how long until the extra comes back', earlier })).toBe('payments.refund-time');
    expect(
      first({ message: 'can i still undo it', earlier: [{ message: 'x', sources: ['investing.statuses'] }] }),
    ).toBe('investing.cancel');
  });
});

describe('an earlier message left unanswered', () => {
  it('tells a follow-up what the conversation is about', () => {
    const earlier = [{ message: 'refund for the solar panels project pls', sources: [] }];
    expect(understand(kb, { message: 'refund for the solar panels project pls' }).passages).toEqual([]);
    expect(first({ message: 'when will it land on my card', earlier })).toBe('payments.refund-time');
    expect(
      first({ message: 'when will it land on my card', earlier }, { ...DEFAULT_READING, unansweredShare: 0 }),
    ).toBe(undefined);
  });
});

describe('words that point back', () => {
  it('reads "that" after a preposition or at an end as pointing back, not when it joins a clause', () => {
    expect(refersToContext('how long would i be waiting in that case')).toBe(true);
    expect(refersToContext('do i get a paper for that payment')).toBe(true);
    expect(refersToContext('that is what i wanted')).toBe(true);
    expect(refersToContext('how do i write a will that covers my investments')).toBe(false);
  });

  it('reads a possessive pronoun as pointing back', () => {
    expect(refersToContext('where do i find mine')).toBe(true);
    expect(refersToContext('where do i find my receipt')).toBe(false);
  });
});

// How the page, the conversation and the parts of a long message weigh in understanding a
// member's message (understanding.ts).

/** How the page and the conversation weigh, and when a message is read in parts (chosen with eval/assistant/tune-kinds.ts). */
export interface Reading {
  /** A message this confident alone (see retrieval.ts, confidence) is answered alone: nothing around it overrides it. */
  clear: number;
  /** Added to the score of a passage that lists the member's page (route or route name; a module counts moduleShare). */
  pageBoost: number;
  moduleShare: number;
  /** Added to the score of a passage the previous answer used; a passage of the same topic gets topicShare of it. */
  followBoost: number;
  topicShare: number;
  /** Added to topicShare for the last answer's next steps, in any topic (vague-turns.ts nextSteps). */
  nextShare: number;
  /** Share of followBoost for the very passage an earlier answer used (the member has read it; a follow-up often asks the next step). */
  sameShare: number;
  /** Added to the rank of a passage the conversation points to whose heading asks when, as the follow-up does (vague-turns.ts). */
  timeBoost: number;
  /** Each exchange further back counts this share of the one after it. */
  decay: number;
  /** An earlier message left unanswered counts this share of an answered one, by its best passage (turn-context.ts). */
  unansweredShare: number;
  /**
   * A message at least this confident alone and pointing nowhere outside itself (a short one also
   * settled on one passage) is read without a page or a conversation its best passages have nothing
   * to do with (turn-context.ts).
   */
  apartConfidence: number;
  /**
   * Share of what the page (pageCredit) and the conversation (followCredit) add that counts towards
   * answering at all, for a message that says everything itself (the rest only orders the
   * passages); a message that points outside itself (this, it, here, and…: message-parts.ts) gets all of it.
   */
  pageCredit: number;
  followCredit: number;
  /** A message of at most this many words says too little to stand alone: it gets the page's and the conversation's weight in full. */
  shortWords: number;
  /**
   * A part of a long message must be this confident alone for its passage to answer a second
   * question; one of at most shortWords words off the whole message's topic, apartConfidence (long-messages.ts).
   */
  partConfidence: number;
  /** A second question's passages are ordered by their score plus this share of their score for the whole message. */
  wholeWeight: number;
  /** Weight of the English search of a Finglish message (its English words: refund, ticket, high) added to each passage's Persian score. */
  englishWeight: number;
  /**
   * A long message with a question inside a story: the passages are ordered by the chosen search's
   * score plus this share of the other one's (the whole message's, or its asking parts').
   */
  askedWeight: number;
  /**
   * A message of at most outsideWords words asked on a page: so few words sit near some question
   * outside the scope by chance, so only this share of how much closer it is to one than to any
   * passage (retrieval.ts, confidence) counts; a longer one keeps all of it.
   */
  contextOutside: number;
  outsideWords: number;
  /** The asking parts' search replaces the whole message's only when this much more confident. */
  askedMargin: number;
  /**
   * A long message weak as a whole, at most this far below the threshold, is answered by its best
   * passage when one of its parts alone finds that passage first (long-messages.ts).
   */
  nearMiss: number;
}

export const DEFAULT_READING: Reading = {
  clear: 0.8,
  pageBoost: 0.6,
  moduleShare: 0.5,
  followBoost: 0.6,
  topicShare: 0.8,
  sameShare: 1,
  nextShare: 0.12,
  timeBoost: 0.12,
  decay: 0.8,
  unansweredShare: 0.5,
  apartConfidence: 0.65,
  pageCredit: 0.25,
  followCredit: 0.4,
  shortWords: 6,
  partConfidence: 0.45,
  wholeWeight: 0.2,
  englishWeight: 0.3,
  askedWeight: 0.4,
  contextOutside: 0.25,
  outsideWords: 5,
  askedMargin: 0.05,
  nearMiss: 0.03,
};

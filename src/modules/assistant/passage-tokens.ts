// A passage's parts as the language index reads them (knowledge-index.ts): each part tokenised once
// for the counts and the word index, each token numbered (terms.ts) and its search term looked up
// once for both. At a start on a large knowledge base, looking a term up per token twice and
// putting each field's tokens in a set to count them were a tenth of the build; the numbers tell a
// field's distinct tokens apart with a stamp per number instead.
import type { Passage } from './knowledge-files.js';
import { grown } from './grown.js';
import type { PartTerms, Term } from './term-counts.js';
import { numberedTokens, searchTerm, termOfNumber, tokenNumber, tokenize } from './terms.js';
import type { FieldTerms } from './word-index.js';

/** One part's tokens and their numbers (-1 for a token without one: the numbers ran out). */
interface Part {
  tokens: string[];
  numbers: number[];
}

export interface Tokens {
  question: Part;
  alternates: Part[];
  answer: Part;
  terms: PartTerms;
}

function partOf(text: string): Part {
  const tokens = tokenize(text);
  return { tokens, numbers: tokens.map(tokenNumber) };
}

const termsOf = ({ tokens, numbers }: Part): Term[] =>
  numbers.map((n, i) => (n >= 0 ? termOfNumber(n) : searchTerm(tokens[i]!)));

export function tokensOf(p: Passage): Tokens {
  const question = partOf(p.question);
  const alternates = p.alternates.map(partOf);
  const answer = partOf(p.answer);
  const terms = { question: termsOf(question), alternates: alternates.map(termsOf), answer: termsOf(answer) };
  return { question, alternates, answer, terms };
}

/** The distinct terms of term lists, in order of first use, leaving out those in `besides` (termSet's, from the terms). */
export function distinctTerms(lists: readonly (readonly Term[])[], besides?: ReadonlySet<string>): Set<string> {
  const distinct = new Set<string>();
  for (const terms of lists) for (const term of terms) if (term !== null && !besides?.has(term)) distinct.add(term);
  return distinct;
}

// By token number: the stamp of the last count that met it.
let seen = new Int32Array(1024);
let stamp = 0;

/** How many distinct tokens the parts hold together (what a set of them would hold). */
export function distinctTokens(parts: readonly Part[]): number {
  if (seen.length < numberedTokens()) seen = grown(seen, numberedTokens());
  stamp += 1;
  if (stamp === 2 ** 31 - 1) {
    seen.fill(0);
    stamp = 1;
  }
  let count = 0;
  let unnumbered: Set<string> | undefined;
  for (const { tokens, numbers } of parts)
    for (let i = 0; i < numbers.length; i += 1) {
      const n = numbers[i]!;
      if (n < 0) {
        unnumbered ??= new Set();
        unnumbered.add(tokens[i]!);
      } else if (seen[n] !== stamp) {
        seen[n] = stamp;
        count += 1;
      }
    }
  return count + (unnumbered?.size ?? 0);
}

/** A passage's two searched fields: its questions (heading and alternates), its answer. */
export function fields(tokens: Tokens): [FieldTerms, FieldTerms] {
  return [
    {
      length: distinctTokens([tokens.question, ...tokens.alternates]),
      terms: [...tokens.terms.question, ...tokens.terms.alternates.flat()],
    },
    { length: distinctTokens([tokens.answer]), terms: tokens.terms.answer },
  ];
}

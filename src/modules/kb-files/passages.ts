// A document's sections cut into passages the assistant can quote: at most PASSAGE_CHARS each,
// cut between paragraphs, else between sentences, else between words, each keeping its page or
// heading. A passage is what a chat source points at ("Refund policy, page 3").

export const PASSAGE_CHARS = 1_200;

/** A run of a document's text with where it is: its page (PDF) or the heading above it (extract.ts). */
export interface Section {
  page: number | null;
  heading: string | null;
  text: string;
}

export interface DocumentPassage {
  position: number;
  page: number | null;
  heading: string | null;
  body: string;
}

/** Pieces of text no longer than max, cut at the coarsest boundary that fits. */
function pieces(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  for (const boundary of [/\n\s*\n/, /(?<=[.!?؟])\s+/, /\s+/]) {
    const parts = text.split(boundary).filter((p) => p.trim() !== '');
    if (parts.length < 2) continue;
    const out: string[] = [];
    let current = '';
    for (const part of parts) {
      const joined = current === '' ? part : `${current} ${part}`;
      if (joined.length <= max) current = joined;
      else {
        if (current !== '') out.push(current);
        current = part;
      }
    }
    if (current !== '') out.push(current);
    return out.flatMap((p) => pieces(p, max));
  }
  const out: string[] = [];
  for (let at = 0; at < text.length; at += max) out.push(text.slice(at, at + max));
  return out;
}

export function toPassages(sections: Section[]): DocumentPassage[] {
  const passages: DocumentPassage[] = [];
  for (const section of sections)
    for (const body of pieces(section.text, PASSAGE_CHARS))
      passages.push({
        position: passages.length + 1,
        page: section.page,
        heading: section.heading ? section.heading.slice(0, 300) : null,
        body: body.trim(),
      });
  return passages;
}

/** en or fa: fa when at least a third of the letters are Arabic-script letters. */
export function detectLanguage(text: string): 'en' | 'fa' {
  const sample = text.slice(0, 20_000);
  const arabic = sample.match(/[\u0600-\u06ff]/g)?.length ?? 0;
  const letters = arabic + (sample.match(/[A-Za-z]/g)?.length ?? 0);
  return letters > 0 && arabic / letters >= 1 / 3 ? 'fa' : 'en';
}

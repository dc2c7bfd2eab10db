// Only the new text of a reply becomes the comment: what mail clients append below it (the quoted
// message with its attribution line, the signature) is cut. The markers are those the common
// clients write: Gmail, Apple Mail and Thunderbird ("On <date>, <name> wrote:", in Persian
// "... نوشت:"), Outlook ("-----Original Message-----", a "From:/Sent:" header block, a line of
// underscores), mobile clients ("Sent from my iPhone", "Get Outlook for Android"), "-- " signatures,
// and ">" quoting. A forwarded message is the member's content and stays.

/** Lines that start what follows the new text. */
const CUT_LINE = [
  /^-{2,}\s*Original Message\s*-{2,}$/i,
  /^-{5,}\s*پیام اصلی\s*-{5,}$/,
  /^_{20,}$/,
  /^--\s?$/,
  /^Sent from my (iPhone|iPad|Android|mobile|Galaxy|Samsung)/i,
  /^Sent from (Mail|Outlook|Yahoo Mail) for/i,
  /^Get Outlook for (iOS|Android)/i,
  /^ارسال ?شده از (آیفون|گوشی|iPhone|Android)/,
];

/** An attribution line: "On ..., X wrote:" (possibly over two lines), or the Persian "... نوشت:". */
const ATTRIBUTION_END = /(wrote|a écrit|schrieb|escribió|نوشت)\s*:\s*$/i;
const ATTRIBUTION_START = /^(On|Le|Am|El|در|در تاریخ)\s/i;

/** Outlook's header block: "From:" followed within a few lines by "Sent:"/"Date:". */
function isOutlookHeaderBlock(lines: string[], i: number): boolean {
  if (!/^(\*?From|از)\s*:\*?\s/.test(lines[i]!)) return false;
  return lines.slice(i + 1, i + 4).some((l) => /^\*?(Sent|Date|تاریخ|ارسال)\s*:/.test(l.trim()));
}

function isForwardMarker(line: string): boolean {
  return (
    /^-{5,}\s*(Forwarded message|Forwarded Message|پیام بازارسال شده)\s*-{5,}$/i.test(line) ||
    /^Begin forwarded message:$/i.test(line)
  );
}

/** The new text of a reply: quoted history and signature removed; the whole text when nothing is left. */
export function newTextOf(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (isForwardMarker(trimmed)) {
      kept.push(...lines.slice(i));
      break;
    }
    if (ATTRIBUTION_END.test(trimmed) && (ATTRIBUTION_START.test(trimmed) || /نوشت\s*:\s*$/.test(trimmed))) break;
    if (ATTRIBUTION_START.test(trimmed) && i + 1 < lines.length && ATTRIBUTION_END.test(lines[i + 1]!.trim())) break;
    if (/^(From|از)\s*:/.test(trimmed) ? isOutlookHeaderBlock(lines, i) : CUT_LINE.some((re) => re.test(trimmed)))
      break;
    if (/^>/.test(trimmed)) continue;
    kept.push(line);
  }
  const result = kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return result === '' ? text.trim() : result;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  zwnj: '\u200c',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * The text of an HTML-only mail. The quoted history that clients mark in HTML is dropped first:
 * Gmail's div.gmail_quote, blockquotes (Apple Mail, Thunderbird), Outlook's #divRplyFwdMsg and
 * everything after it, Yahoo's .yahoo_quoted.
 */
export function textOfHtml(html: string, withoutQuotes: boolean): string {
  let body = html.replace(/<(head|style|script|title)[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  if (withoutQuotes) {
    body = body
      .replace(/<div[^>]*id=["']?(divRplyFwdMsg|appendonsend)[\s\S]*$/i, '')
      .replace(/<(div|blockquote)[^>]*class=["'][^"']*(gmail_quote|yahoo_quoted|moz-cite-prefix)[\s\S]*$/i, '')
      .replace(/<blockquote[\s\S]*?<\/blockquote\s*>/gi, '');
  }
  const text = body
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote)\s*>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

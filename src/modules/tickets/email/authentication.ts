// Whether a message's From can be believed. Mail's From is the sender's claim; only the server that
// received the message from the internet can check it (SPF, DKIM, DMARC), and it writes its verdict
// in an Authentication-Results header (RFC 8601) headed by its own authserv-id. Anyone can write
// such a header into a message, so only the topmost one from MAIL_TRUSTED_AUTHSERV_ID (or a host
// under it: Fastmail writes mx1…mx6.messagingengine.com) is read; the receiving server adds its own
// above whatever the message carried, and conforming servers remove older ones bearing their id. A pass counts only when it vouches for the From's domain: DMARC
// pass for that domain, or DKIM or SPF pass for a domain aligned with it (the same domain, or one a
// subdomain of the other, as DMARC's relaxed alignment).
import type { Config } from '../../../config.js';
import type { InboundMessage } from './parse.js';

/** pass: the From is vouched for; fail: the trusted server found it forged; none: no verdict to go by. */
export type SenderVerdict = 'pass' | 'fail' | 'none';

interface MethodResult {
  method: string;
  result: string;
  props: Record<string, string>;
}

/** The header's text without its (comments), which may nest; quoted strings are kept. */
function withoutComments(value: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && (quoted || depth > 0)) {
      if (depth === 0) out += c + (value[i + 1] ?? '');
      i++;
    } else if (quoted) {
      out += c;
      if (c === '"') quoted = false;
    } else if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (depth === 0) {
      if (c === '"') quoted = true;
      out += c;
    }
  }
  return out;
}

const PAIR = /([a-z0-9_\-/]+(?:\.[a-z0-9_-]+)?)\s*=\s*(?:"([^"]*)"|([^\s;"]+))/gi;

/** The authserv-id and the method results of one Authentication-Results value. */
export function parseAuthenticationResults(value: string): { authservId: string; results: MethodResult[] } {
  const [head = '', ...rest] = withoutComments(value).split(';');
  const authservId = head.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const results: MethodResult[] = [];
  for (const part of rest) {
    const pairs = [...part.matchAll(PAIR)].map((m) => [m[1]!.toLowerCase(), (m[2] ?? m[3] ?? '').trim()] as const);
    const [first, ...props] = pairs;
    if (!first || first[0].includes('.')) continue;
    results.push({
      method: first[0].replace(/\/.*$/, ''),
      result: first[1].toLowerCase(),
      props: Object.fromEntries(props.filter(([k]) => k.includes('.'))),
    });
  }
  return { authservId, results };
}

const domainOf = (value: string | undefined) =>
  value
    ?.slice(value.lastIndexOf('@') + 1)
    .replace(/\.$/, '')
    .toLowerCase();

/** The same domain, or one a subdomain of the other (whoever can sign for one controls both). */
function aligned(domain: string | undefined, fromDomain: string): boolean {
  if (!domain?.includes('.') || !fromDomain.includes('.')) return false;
  return domain === fromDomain || fromDomain.endsWith(`.${domain}`) || domain.endsWith(`.${fromDomain}`);
}

export function senderVerdict(config: Config, mail: InboundMessage): SenderVerdict {
  const trusted = config.MAIL_TRUSTED_AUTHSERV_ID;
  const fromDomain = domainOf(mail.from);
  if (!trusted || !fromDomain) return 'none';
  const header = mail.authenticationResults
    .map(parseAuthenticationResults)
    .find((h) => h.authservId === trusted || h.authservId.endsWith(`.${trusted}`));
  if (!header) return 'none';
  const about = (r: MethodResult, prop: string) =>
    r.props[prop] === undefined || aligned(domainOf(r.props[prop]), fromDomain);
  const dmarc = header.results.filter((r) => r.method === 'dmarc' && about(r, 'header.from'));
  if (dmarc.some((r) => r.result === 'fail')) return 'fail';
  if (dmarc.some((r) => r.result === 'pass')) return 'pass';
  const vouches = header.results.some(
    (r) =>
      r.result === 'pass' &&
      ((r.method === 'dkim' && aligned(domainOf(r.props['header.d'] ?? r.props['header.i']), fromDomain)) ||
        (r.method === 'spf' && aligned(domainOf(r.props['smtp.mailfrom']), fromDomain))),
  );
  return vouches ? 'pass' : 'none';
}

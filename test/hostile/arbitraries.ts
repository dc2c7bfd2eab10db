// Generators of hostile input for the fuzz suite: strings, numbers, ids, JSON documents, bodies
// with the wrong type or encoding, broken multipart and abusive headers. Each one mixes plausible
// values (so requests also reach the services) with values no client should send.
import fc from 'fast-check';
import { multipart } from '../helpers/multipart.js';

/** Letters and marks that trouble text handling: RTL mark, NUL, ZWNJ, emoji, Arabic ي/ك next to Persian ی/ک. */
const TRICKY_PIECES = [
  '\u200f',
  '\u200e',
  '\u202e',
  '\u0000',
  '\u200c',
  '\ufeff',
  '😀',
  '👩‍👩‍👧',
  '\ud83d',
  '\udc00',
  'ي',
  'ك',
  'ی',
  'ک',
  'سلام',
  'كيف حالك',
  'پرداخت',
  '۱۲۳',
  '١٢٣',
  '\r\n',
  '\t',
  ' ',
  '%',
  '_',
  '\\',
  "'",
  '"',
  ';',
  '--',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '../',
  '..\\',
  '/etc/passwd',
  'null',
  'undefined',
  'NaN',
  '0',
  '-1',
];

export const trickyString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(...TRICKY_PIECES),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** Long strings are built from a length, not generated character by character. */
export const hugeString: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 256, max: 400_000 }), fc.constantFrom('x', 'ی', '😀', ' ', '\u200f', 'a '))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

export const anyString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: trickyString, weight: 3 },
  { arbitrary: hugeString, weight: 1 },
);

export const outOfRangeNumber: fc.Arbitrary<number | string> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    -0,
    2_147_483_647,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    5e-324,
    1.5,
    0.1,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  // Digits beyond any integer type, sent raw in JSON text.
  fc.integer({ min: 20, max: 400 }).map((n) => '9'.repeat(n)),
);

/** Any JSON value, shallow: the wrong type for whatever field receives it. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  outOfRangeNumber,
  anyString,
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 4 }),
);

/** A plausible value for a field (from the route's own list) most of the time, anything else otherwise. */
export function fieldValue(plausible: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: plausible, weight: 3 }, { arbitrary: wrongType, weight: 2 });
}

/** Ids as path segments: integers of every size and sign, and text that is not an id at all. */
/** Marks a path segment to be sent exactly as written (not percent-encoded): broken escapes, dot segments. */
export const RAW_SEGMENT = '\u0001raw:';
const rawSegment = fc
  .constantFrom('%', '%ZZ', '%E0%A4%A', '%00', '..', '.', '%2e%2e', 'a%2Fb', '%C0%AF', '%FF')
  .map((s) => `${RAW_SEGMENT}${s}`);

export const hostileIdText: fc.Arbitrary<string> = fc.oneof(
  rawSegment,
  fc.integer({ min: -5, max: 50 }).map(String),
  fc.constantFrom(
    '0',
    '-1',
    '00001',
    '1.5',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '+1',
    '2147483647',
    '2147483648',
    '9007199254740993',
    '9'.repeat(30),
    "1' OR '1'='1",
    '1;DROP TABLE tickets',
    '1 UNION SELECT 1',
    '../../etc/passwd',
    '..%2F..%2Fetc',
    '%00',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    'NaN',
    'Infinity',
    '١٢',
    '۱۲',
    'ي',
    '\u200f1',
    '😀',
    'city_1',
    'rural_1',
    'CITY_1',
    'city_',
    'city_-1',
  ),
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
  fc.integer({ min: 150, max: 400 }).map((n) => '1'.repeat(n)),
);

export const hostileUuidText: fc.Arbitrary<string> = fc.oneof(
  hostileIdText,
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u}' OR '1'='1`),
  fc.uuid().map((u) => u.replace(/-/g, '')),
);

export interface RawBody {
  /** Bytes or text sent as is; undefined sends no body. */
  payload?: string | Buffer;
  contentType?: string;
  /** A short label for failure reports. */
  kind: string;
}

export function jsonBody(value: unknown, kind = 'json'): RawBody {
  return { payload: JSON.stringify(value), contentType: 'application/json', kind };
}

/** Nesting deep enough to trouble recursive code: [[[[...]]]] or {"a":{"a":...}}. */
export const deepJson: fc.Arbitrary<RawBody> = fc
  .tuple(
    fc.integer({ min: 100, max: 20_000 }),
    fc.boolean(),
    fc.constantFrom('message', 'context', 'subject', 'category', 'tags'),
  )
  .map(([depth, arrays, field]) => {
    const inner = arrays
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return {
      payload: `{"${field}":${inner}}`,
      contentType: 'application/json',
      kind: `deep ${arrays ? 'array' : 'object'} ${depth}`,
    };
  });

/** Large documents: many keys, long arrays, long strings (some above the body limit). */
export const hugeJson: fc.Arbitrary<RawBody> = fc.oneof(
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => ({
    payload: JSON.stringify({ tags: Array.from({ length: n }, (_, i) => i + 1) }),
    contentType: 'application/json',
    kind: `array ${n}`,
  })),
  fc.integer({ min: 100, max: 50_000 }).map((n) => {
    const context: Record<string, string> = {};
    for (let i = 0; i < n; i++) context[`k${i}`] = 'v';
    return {
      payload: JSON.stringify({ message: 'hello there', context, ...context }),
      contentType: 'application/json',
      kind: `keys ${n}`,
    };
  }),
  fc.integer({ min: 500_000, max: 3_000_000 }).map((n) => ({
    payload: JSON.stringify({ message: 'x'.repeat(n), subject: 'x' }),
    contentType: 'application/json',
    kind: `string ${n}`,
  })),
);

export const malformedJson: fc.Arbitrary<RawBody> = fc
  .constantFrom(
    '{',
    '{"message":',
    '[1,2',
    'nul',
    '{"a":1,}',
    "{'a':1}",
    '\u0000',
    '\ufeff{"message":"hello world"}',
    '{"message":"\\u00"}',
    '"\\ud800"',
    ' ',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    'true',
    '1',
    '"text"',
    '[]',
    'null',
  )
  .map((payload) => ({ payload, contentType: 'application/json', kind: 'malformed json' }));

export const wrongContentType: fc.Arbitrary<RawBody> = fc
  .tuple(
    fc.constantFrom(
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/jsonx',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/mixed; boundary=x',
      'image/png',
      '*/*',
      ';;;',
      'application/json, text/plain',
      'APPLICATION/JSON',
      'text/html',
      'application/vnd.api+json',
    ),
    fc.constantFrom(
      '{"message":"hello there friend"}',
      'message=hello+there+friend&subject=x',
      '<a>1</a>',
      '\u0000\u0001',
      '',
    ),
  )
  .map(([contentType, payload]) => ({ payload, contentType, kind: `content-type ${contentType}` }));

/** The boundary of the hostile multipart bodies (multipart() in test/helpers/multipart.ts builds them). */
export const MULTIPART_BOUNDARY = 'hostileBoundary7MA4YWxkTrZu0gW';

export const TEXT_FILE = Buffer.from('A plain text attachment.\n');
export const PNG_FILE = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a10000000049454e44ae426082',
  'hex',
);

export const hostileFileName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'note.txt',
    'image.png',
    '../../etc/passwd',
    '../../etc/passwd.txt',
    '..\\..\\x.txt',
    '..\\..\\windows\\win.ini',
    '/etc/shadow.txt',
    'a\u0000.txt.exe',
    'a.txt\u0000.png',
    '....//....//x.txt',
    '.txt',
    '..',
    '.',
    '',
    'x.TXT',
    'x.php.txt',
    'x.txt.php',
    'CON.txt',
    'نامه ي ك.txt',
    '\u202etxt.exe',
    'a"b.txt',
    "a'b.txt",
    'a;b.txt',
    '%2e%2e%2fx.txt',
    `${'x'.repeat(300)}.txt`,
  ),
  trickyString.map((s) => `${s}.txt`),
);

const fileContent: fc.Arbitrary<{ content: Buffer; type: string }> = fc.oneof(
  fc.constant({ content: TEXT_FILE, type: 'text/plain' }),
  fc.constant({ content: PNG_FILE, type: 'image/png' }),
  fc.constant({ content: Buffer.alloc(0), type: 'text/plain' }),
  fc.constant({ content: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]), type: 'application/x-msdownload' }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ content: Buffer.from(bytes), type: 'application/octet-stream' })),
);

/** Well-formed multipart with hostile fields and files. */
export function multipartArbitrary(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<RawBody> {
  const fieldPart = fc.tuple(
    fc.constantFrom(...Object.keys(fields), 'tags[]', 'tags[0]', 'extra', 'attachments'),
    fc.oneof(anyString, fc.integer().map(String)),
  );
  const filePart = fc.tuple(
    fc.constantFrom('attachments[]', 'attachments', 'attachments[3]', 'other', 'attachments[x]'),
    hostileFileName,
    fileContent,
  );
  return fc
    .tuple(fc.array(fieldPart, { maxLength: 6 }), fc.array(filePart, { maxLength: 4 }))
    .map(([fieldParts, fileParts]) => {
      const body = multipart(
        fieldParts.map(([name, value]) => [name, String(value)]),
        fileParts.map(([field, name, file]) => ({ field, name, ...file })),
        MULTIPART_BOUNDARY,
      );
      return {
        payload: body.payload,
        contentType: body.headers['content-type'],
        kind: `multipart ${fieldParts.length + fileParts.length} parts`,
      };
    });
}

/** Broken multipart: truncated, wrong boundary, missing headers, garbage. */
export const malformedMultipart: fc.Arbitrary<RawBody> = fc
  .tuple(
    fc.constantFrom(
      'truncated',
      'wrong-boundary',
      'no-disposition',
      'garbage',
      'no-final',
      'header-only',
      'huge-header',
    ),
    fc.integer({ min: 1, max: 60 }),
  )
  .map(([how, cut]) => {
    const boundary = MULTIPART_BOUNDARY;
    const good = multipart(
      [['message', 'hello there friend']],
      [{ name: 'a.txt', content: TEXT_FILE }],
      boundary,
    ).payload;
    let payload: Buffer;
    switch (how) {
      case 'truncated':
        payload = good.subarray(0, Math.max(1, good.length - cut));
        break;
      case 'wrong-boundary':
        payload = good;
        break;
      case 'no-disposition':
        payload = Buffer.from(`--${boundary}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`);
        break;
      case 'garbage':
        payload = Buffer.from(Array.from({ length: cut * 10 }, (_, i) => (i * 37) % 256));
        break;
      case 'no-final':
        payload = good.subarray(0, good.indexOf(`--${boundary}--`));
        break;
      case 'header-only':
        payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n`);
        break;
      default:
        payload = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="message"; ${'x'.repeat(cut * 2000)}\r\n\r\nv\r\n--${boundary}--\r\n`,
        );
    }
    const contentBoundary = how === 'wrong-boundary' ? 'someOtherBoundary' : boundary;
    return {
      payload,
      contentType: `multipart/form-data; boundary=${contentBoundary}`,
      kind: `malformed multipart ${how}`,
    };
  });

/** Header values are limited to what an HTTP parser lets through (visible Latin-1 and spaces). */
const headerText = fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));

export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 4 },
  {
    arbitrary: fc
      .integer({ min: 50, max: 400 })
      .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-hostile-${i}`, 'v'.repeat(i % 50)]))),
    weight: 1,
  },
  {
    arbitrary: fc.record(
      {
        'accept-language': fc.oneof(
          headerText,
          fc.constantFrom('fa', 'fa-IR,fa;q=0.9', 'en;q=0', '*', 'zz-ZZ', 'fa;q=abc', ',,,;;;'),
        ),
        'if-none-match': fc.oneof(headerText, fc.constant('*'), fc.constant('W/"x", "y"')),
        'x-forwarded-for': fc.oneof(headerText, fc.constant('127.0.0.1, 10.0.0.1')),
        'x-request-id': headerText,
        accept: fc.constantFrom(
          'text/html',
          'application/xml',
          '*/*',
          'application/json',
          'text/event-stream',
          'text/event-stream, application/json;q=0.5',
        ),
        cookie: headerText,
        'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
      },
      { requiredKeys: [] },
    ),
    weight: 2,
  },
);

export type AuthChoice = 'owner' | 'admin' | 'none' | 'garbage';

/** Mostly the caller a route is for (the owner, or an admin on admin routes); sometimes nobody or garbage. */
export function authChoiceFor(access: string): fc.Arbitrary<AuthChoice> {
  const admin = access === 'admin';
  return fc.oneof(
    { arbitrary: fc.constant<AuthChoice>('owner'), weight: admin ? 2 : 8 },
    { arbitrary: fc.constant<AuthChoice>('admin'), weight: admin ? 8 : 2 },
    { arbitrary: fc.constant<AuthChoice>('none'), weight: 1 },
    { arbitrary: fc.constant<AuthChoice>('garbage'), weight: 1 },
  );
}

export const garbageAuthorization: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 513, max: 16_000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
  fc.integer({ min: 1, max: 16_000 }).map((n) => 'x'.repeat(n)),
  headerText.map((s) => `Bearer ${s}`),
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'bearer 1|',
    'Basic dXNlcjpwYXNz',
    `Bearer 1|${'a'.repeat(40)} extra`,
    "Bearer 1' OR '1'='1",
    `Bearer 0|${'a'.repeat(40)}`,
    `Bearer 99999999999999999999|${'a'.repeat(40)}`,
  ),
);

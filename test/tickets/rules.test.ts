import { describe, expect, it } from 'vitest';
import { cleanFileName, extensionOf } from '../../src/modules/tickets/file-check.js';
import { contentDisposition } from '../../src/modules/tickets/http-helpers.js';
import { priorityFor } from '../../src/modules/tickets/priority.js';
import { likeContains } from '../../src/db/like.js';
import { newTrackingCode } from '../../src/modules/tickets/service.js';
import { firstResponseDeadlineFor, slaDeadlineFor, slaStatusOf } from '../../src/modules/tickets/sla.js';

describe('priority keywords', () => {
  it.each([
    ['Critical bug', '', 'high'],
    ['help', 'please fix ASAP', 'high'],
    ['Emergency', '', 'high'],
    ['', 'وضعیت اضطراری', 'high'],
    ['', 'موضوع حساس', 'high'],
    ['', 'خطای بحرانی', 'high'],
    ['', 'no rush on this one', 'low'],
    ['Feature suggestion', '', 'low'],
    ['', 'يك پيشنهاد', 'low'],
    ['Suggestion but urgent', '', 'high'],
    ['Kasapi login', 'criticality review is fine', 'normal'],
  ])('"%s" + "%s" -> %s', (subject, message, expected) => {
    expect(priorityFor(subject, message)).toBe(expected);
  });
});

describe('SLA', () => {
  const created = '2026-01-01T00:00:00.000Z';
  it('counts deadlines from creation by priority', () => {
    expect(slaDeadlineFor('high', created)).toBe('2026-01-01T04:00:00.000Z');
    expect(slaDeadlineFor('normal', created)).toBe('2026-01-02T00:00:00.000Z');
    expect(slaDeadlineFor('low', created)).toBe('2026-01-04T00:00:00.000Z');
    expect(firstResponseDeadlineFor('high', created)).toBe('2026-01-01T01:00:00.000Z');
    expect(firstResponseDeadlineFor('normal', created)).toBe('2026-01-01T04:00:00.000Z');
    expect(firstResponseDeadlineFor('low', created)).toBe('2026-01-01T12:00:00.000Z');
  });
  it('takes another table', () => {
    const hours = {
      resolution: { high: 1, normal: 2, low: 3 },
      firstResponse: { high: 1, normal: 1, low: 1 },
      warningShare: 0.5,
    };
    expect(slaDeadlineFor('low', created, hours)).toBe('2026-01-01T03:00:00.000Z');
  });
  it('derives sla_status', () => {
    const base = { created_at: created, sla_deadline: '2026-01-01T04:00:00.000Z', resolved_at: null };
    const at = (iso: string) => Date.parse(iso);
    expect(slaStatusOf({ ...base, status: 'open' }, at('2026-01-01T01:00:00Z'))).toBe('on_time');
    expect(slaStatusOf({ ...base, status: 'in-progress' }, at('2026-01-01T03:30:00Z'))).toBe('warning');
    expect(slaStatusOf({ ...base, status: 'open' }, at('2026-01-01T04:00:01Z'))).toBe('overdue');
    expect(slaStatusOf({ ...base, status: 'closed', resolved_at: '2026-01-01T03:59:59.000Z' })).toBe('met');
    expect(slaStatusOf({ ...base, status: 'closed', resolved_at: '2026-01-01T04:00:01.000Z' })).toBe('missed');
  });
});

describe('file names', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\win.ini', 'win.ini'],
    ['a\u0000b\u001f.txt', 'ab.txt'],
    ['  report.pdf ', 'report.pdf'],
    ['..', ''],
    ['گزارش.pdf', 'گزارش.pdf'],
  ])('%j -> %j', (raw, clean) => {
    expect(cleanFileName(raw)).toBe(clean);
  });
  it('shortens long names to 255 characters keeping the extension', () => {
    const name = cleanFileName(`${'a'.repeat(300)}.png`);
    expect(name).toHaveLength(255);
    expect(extensionOf(name)).toBe('png');
  });
  it('builds an RFC 6266 Content-Disposition with an ASCII fallback', () => {
    expect(contentDisposition('a "b".txt')).toBe(`attachment; filename="a _b_.txt"; filename*=UTF-8''a%20%22b%22.txt`);
    expect(contentDisposition('سند.pdf')).toBe(
      `attachment; filename="___.pdf"; filename*=UTF-8''%D8%B3%D9%86%D8%AF.pdf`,
    );
  });
});

describe('tracking codes and search patterns', () => {
  it('are TK- and 8 characters of A-Z0-9', () => {
    for (let i = 0; i < 200; i++) expect(newTrackingCode()).toMatch(/^TK-[A-Z0-9]{8}$/);
  });
  it('escape LIKE wildcards', () => {
    expect(likeContains('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

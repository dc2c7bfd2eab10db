// The answer cache behind GET /api/notifications and GET /api/tickets: an answer is served only
// for the version it was built at and before its expiry, within a byte budget.
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../src/http/answer-cache.js';

describe('AnswerCache', () => {
  const body = (text: string) => Buffer.from(text);

  it('answers only for the version the answer was built at', () => {
    const cache = new AnswerCache<number>(1024);
    cache.set(1, 3, body('[1]'));
    expect(cache.get(1, 3)?.toString()).toBe('[1]');
    expect(cache.get(1, 4)).toBeUndefined();
    expect(cache.get(2, 3)).toBeUndefined();
  });

  it('keeps the newer answer when an older one arrives late', () => {
    const cache = new AnswerCache<number>(1024);
    cache.set(1, 5, body('[new]'));
    cache.set(1, 4, body('[old]'));
    expect(cache.get(1, 5)?.toString()).toBe('[new]');
    cache.set(1, 6, body('[newer]'));
    expect(cache.get(1, 6)?.toString()).toBe('[newer]');
    expect(cache.size).toEqual({ entries: 1, bytes: 7 });
  });

  it('drops the least recently used answers past its byte budget', () => {
    const cache = new AnswerCache<number>(10);
    cache.set(1, 0, body('aaaa'));
    cache.set(2, 0, body('bbbb'));
    expect(cache.get(1, 0)).toBeDefined(); // 1 is now the most recently used
    cache.set(3, 0, body('cccc'));
    expect(cache.get(2, 0)).toBeUndefined();
    expect(cache.get(1, 0)?.toString()).toBe('aaaa');
    expect(cache.get(3, 0)?.toString()).toBe('cccc');
    expect(cache.size).toEqual({ entries: 2, bytes: 8 });
  });

  it('holds nothing with a budget of 0 or an answer larger than the budget', () => {
    const off = new AnswerCache<number>(0);
    off.set(1, 0, body('[]'));
    expect(off.get(1, 0)).toBeUndefined();
    const small = new AnswerCache<number>(4);
    small.set(1, 0, body('[1,2,3]'));
    expect(small.get(1, 0)).toBeUndefined();
    expect(small.size).toEqual({ entries: 0, bytes: 0 });
  });
  it('stops answering at the moment the answer was built to expire, whatever the version', () => {
    const cache = new AnswerCache<string>(1024);
    cache.set('a', 1, body('[on_time]'), 1_000);
    expect(cache.get('a', 1, 999)?.toString()).toBe('[on_time]');
    expect(cache.get('a', 1, 1_000)).toBeUndefined();
    // The expired answer is gone, bytes included.
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
    cache.set('a', 1, body('[warning]'));
    expect(cache.get('a', 1, Number.MAX_SAFE_INTEGER)?.toString()).toBe('[warning]');
  });

  it('never answers with an expiry that is not a number', () => {
    const cache = new AnswerCache<string>(1024);
    cache.set('a', 1, body('[]'), Number.NaN);
    expect(cache.get('a', 1, 0)).toBeUndefined();
  });

  describe('answer', () => {
    function counting(version: number | undefined, label = 'build') {
      const calls = { versionReads: 0, builds: 0 };
      return {
        calls,
        readVersion: async () => {
          calls.versionReads++;
          return version;
        },
        build: async () => {
          calls.builds++;
          return { body: body(`[${label} ${calls.builds}]`) };
        },
      };
    }

    it('builds once, then answers from memory while the version read is the same', async () => {
      const cache = new AnswerCache<string>(1024);
      const source = counting(7);
      expect((await cache.answer('k', source.readVersion, source.build)).toString()).toBe('[build 1]');
      expect((await cache.answer('k', source.readVersion, source.build)).toString()).toBe('[build 1]');
      expect(source.calls).toEqual({ versionReads: 2, builds: 1 });
      // The version moved: built anew, and that answer is the one held from then on.
      const moved = counting(8, 'moved');
      expect((await cache.answer('k', moved.readVersion, moved.build)).toString()).toBe('[moved 1]');
      expect((await cache.answer('k', moved.readVersion, moved.build)).toString()).toBe('[moved 1]');
      expect(moved.calls).toEqual({ versionReads: 2, builds: 1 });
    });

    it('keeps nothing for an unknown version, and reads no version with the cache off', async () => {
      const unknown = counting(undefined);
      const cache = new AnswerCache<string>(1024);
      await cache.answer('k', unknown.readVersion, unknown.build);
      await cache.answer('k', unknown.readVersion, unknown.build);
      expect(unknown.calls.builds).toBe(2);
      expect(cache.size.entries).toBe(0);
      const off = new AnswerCache<string>(0);
      const source = counting(1);
      await off.answer('k', source.readVersion, source.build);
      await off.answer('k', source.readVersion, source.build);
      expect(source.calls).toEqual({ versionReads: 0, builds: 2 });
    });

    it('builds anew once the expiry its build named has passed', async () => {
      const cache = new AnswerCache<string>(1024);
      let builds = 0;
      const build = async (now: number) => ({ body: body(`[${++builds}]`), validUntil: now + 30 });
      await cache.answer('k', async () => 1, build);
      await cache.answer('k', async () => 1, build);
      expect(builds).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect((await cache.answer('k', async () => 1, build)).toString()).toBe('[2]');
    });
  });
});

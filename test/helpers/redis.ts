// The Redis that tests needing one use. Outside CI a missing Redis skips those tests with a
// warning; in CI it fails the run, since CI starts Redis.
import { Redis } from 'ioredis';

export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** True when Redis answers; throws in CI when it does not, warns and returns false elsewhere. */
export async function requireRedis(purpose: string): Promise<boolean> {
  if (await redisAnswers()) return true;
  if (process.env.CI) throw new Error(`Redis does not answer at ${redisUrl}; CI needs it for ${purpose}`);
  console.warn(`skipping ${purpose}: Redis does not answer at ${redisUrl} (set TEST_REDIS_URL)`);
  return false;
}

// Polling until something holds, with a deadline: a server answering, a file appearing, a row
// changing in another process.

/**
 * Calls probe every everyMs until it returns a value other than undefined or false (a probe that
 * throws counts as not yet), and returns that value; throws naming `what` after timeoutMs.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

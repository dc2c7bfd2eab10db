// The load benchmark's command-line options.

export interface Options {
  db: 'sqlite' | 'postgres';
  /** Seconds of the long run. */
  duration: number;
  /** Seconds per step of the search for the rate. */
  step: number;
  /** A fixed number of connections (skips the search). */
  connections?: number;
  /** Simulated users. */
  users: number;
}

export function parseOptions(args: string[]): Options {
  const value = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  // Like the other benchmarks, DATABASE_URL set means PostgreSQL unless --db says otherwise.
  const db = value('db') ?? (process.env.DATABASE_URL ? 'postgres' : 'sqlite');
  if (db !== 'sqlite' && db !== 'postgres') throw new Error('--db must be sqlite or postgres');
  const connections = value('connections');
  return {
    db,
    duration: Number(value('duration') ?? 120),
    step: Number(value('step') ?? 10),
    connections: connections ? Number(connections) : undefined,
    users: Number(value('users') ?? 200),
  };
}

// A named lease in the database: one holder at a time, held by renewing it before it expires.
// Another holder takes it once it has expired (its holder stopped or lost the database) or was
// released. The conditional upsert makes the claim atomic on both dialects.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Takes or renews the lease; true when this holder has it now. */
export async function takeLease(db: Kysely<Database>, name: string, holder: string, ms: number): Promise<boolean> {
  const now = new Date();
  const expires = new Date(now.getTime() + ms).toISOString();
  await db
    .insertInto('mail_leases')
    .values({ name, holder, expires_at: expires })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: expires })
        .where((eb) =>
          eb.or([eb('mail_leases.holder', '=', holder), eb('mail_leases.expires_at', '<', now.toISOString())]),
        ),
    )
    .execute();
  const row = await db.selectFrom('mail_leases').select('holder').where('name', '=', name).executeTakeFirst();
  return row?.holder === holder;
}

export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('mail_leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/** The current holder, for tests and operators. */
export async function leaseHolder(db: Kysely<Database>, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('mail_leases')
    .select(['holder', 'expires_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row && Date.parse(row.expires_at) > Date.now() ? row.holder : undefined;
}

// Ids of the platform's rows: positive integers that fit the 32-bit integer columns.

/** The largest value of a 32-bit integer column (2^31 - 1): the largest id a row can have. */
export const MAX_ID = 2_147_483_647;

/**
 * A path or form id written the canonical way (digits, no leading zero) that a row can have;
 * undefined for anything else, which the caller answers as "not there".
 */
export function canonicalId(text: string): number | undefined {
  return /^[1-9]\d{0,9}$/.test(text) && Number(text) <= MAX_ID ? Number(text) : undefined;
}

/**
 * A path id of up to ten digits, leading zeros allowed (the assistant's and the knowledge base's
 * routes have always read `007` as 7), from 1 to MAX_ID; undefined for anything else.
 */
export function digitsId(text: string): number | undefined {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  return id >= 1 && id <= MAX_ID ? id : undefined;
}

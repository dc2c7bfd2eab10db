// Ids of the platform's rows: positive integers that fit the 32-bit integer columns.

/** The largest value of a 32-bit integer column (2^31 - 1): the largest id a row can have. */
export const MAX_ID = 2_147_483_647;

// TypeBox schemas of the users part of the admin integration API: the platform mirrors its users
// by id and hands out and revokes their personal access tokens.
import { Type, type Static } from 'typebox';
import { IntegerId, NO_NUL, Timestamp } from '../../http/schemas.js';
import type { OpenApiTag } from '../../http/openapi.js';

export const TOKEN_MAX_DAYS = 36_500;

export const UserIdParams = Type.Object({ id: { ...IntegerId, description: "The platform's id of the user." } });
export const UserTokenParams = Type.Object({
  id: { ...IntegerId, description: "The platform's id of the user." },
  token_id: { ...IntegerId, description: 'Id of the token (the number before the | of the token).' },
});

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 100, pattern: NO_NUL, description });

export const UserBody = Type.Object({
  email: Type.String({
    minLength: 1,
    maxLength: 255,
    format: 'email',
    description:
      'Unique among users, compared case-insensitively and stored lower-cased. Tickets carrying this address belong to the user.',
  }),
  first_name: Name('1 to 100 characters.'),
  last_name: Name('1 to 100 characters.'),
  is_admin: Type.Optional(
    Type.Boolean({
      description:
        'Administrator rights: true is role admin; false takes them away (an admin becomes a member, support ' +
        'stays support). Omitted: false for a new user, unchanged for an existing one.',
    }),
  ),
  role: Type.Optional(
    Type.Enum(['member', 'support', 'admin'], {
      description:
        'member; support (works tickets in the staff console); admin (also manages users, the knowledge ' +
        'base, holidays, feedback). Wins over is_admin, which must agree when both are sent (422). Omitted: ' +
        'from is_admin, else member for a new user and unchanged for an existing one. Leaving support or ' +
        'admin ends the user’s console sessions.',
    }),
  ),
  locale: Type.Optional(
    Type.Enum(['en', 'fa'], {
      description: 'Language of notifications and mail. Omitted: en for a new user, unchanged for an existing one.',
    }),
  ),
  active: Type.Optional(
    Type.Boolean({
      description:
        'false: every token and console session of the user is revoked and none signs in again until a new ' +
        'one is made after active is true. Omitted: true for a new user, unchanged for an existing one.',
    }),
  ),
});
export type UserBody = Static<typeof UserBody>;

export const MirroredUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  is_admin: Type.Boolean({ description: 'true exactly when role is admin.' }),
  role: Type.Enum(['member', 'support', 'admin']),
  locale: Type.Enum(['en', 'fa']),
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const UserResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  data: MirroredUser,
  tokens_revoked: Type.Integer({ description: 'Tokens revoked by this call (a deactivation); 0 otherwise.' }),
});

export const TokenBody = Type.Object({
  name: Type.Optional(Name('A label for the token, such as the browser or device; default "default".')),
  expires_in_days: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: TOKEN_MAX_DAYS }), Type.Null()], {
      description: `Lifetime in days, 1 to ${TOKEN_MAX_DAYS}; omitted or null: no expiry.`,
    }),
  ),
});
export type TokenBody = Static<typeof TokenBody>;

export const CreatedTokenResult = Type.Object({
  success: Type.Boolean(),
  id: Type.Integer({ description: 'Id of the token, for revoking it.' }),
  name: Type.String(),
  token: Type.String({
    description:
      'The token, <id>|<40 characters>, for Authorization: Bearer. Shown only in this answer; only its hash is stored.',
  }),
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'When it stops working; null: never.' }),
});

export const TokenList = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      last_used_at: Type.Union([Timestamp, Type.Null()], {
        description: 'Last request signed in with it (written at most once a minute).',
      }),
      expires_at: Type.Union([Timestamp, Type.Null()]),
      created_at: Timestamp,
    }),
    {
      description:
        'The tokens that still sign in (neither revoked nor expired), newest first. The secret is never shown again.',
    },
  ),
});

export const RevokedResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  count: Type.Integer({ description: 'Tokens revoked by this call (0 when they already were).' }),
});

/** The tag of the user administration operations in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'admin integration',
    description:
      'Calls from the main platform (admin token): user accounts and tokens, project and investment changes.',
  },
];

// TypeBox schemas of the staff console's sign-in: the session, sign-in requests and links,
// preferences, the staff list, and the admin integration's links and sessions of a user.
import { Type } from 'typebox';
import type { OpenApiTag } from '../../../http/openapi.js';
import { IntegerId, Timestamp } from '../../../http/schemas.js';

const RoleSchema = Type.Enum(['member', 'support', 'admin'], {
  description: 'member: the platform’s users; support: works tickets; admin: also manages the service.',
});
const LocaleSchema = Type.Enum(['en', 'fa']);

export const Said = Type.Object({ success: Type.Boolean(), message: Type.String() });

export const SessionResult = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({
    user: Type.Object({
      id: Type.Integer(),
      email: Type.String(),
      first_name: Type.String(),
      last_name: Type.String(),
      role: RoleSchema,
      locale: {
        ...LocaleSchema,
        description: 'The language the staff member chose last (PUT /api/console/preferences).',
      },
    }),
    csrf_token: Type.String({
      description: 'Send it as X-CSRF-Token on every request that changes something, with the session cookie.',
    }),
    expires_at: { ...Timestamp, description: 'The session ends then, however busy (CONSOLE_SESSION_MAX_HOURS).' },
    idle_expires_at: {
      ...Timestamp,
      description: 'The session ends then unless used before (CONSOLE_SESSION_IDLE_MINUTES after the last use).',
    },
  }),
});

export const SignInRequestBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255, format: 'email', description: 'The staff member’s address.' }),
});

export const PreferencesBody = Type.Object({
  locale: { ...LocaleSchema, description: 'The console’s language for this staff member, in every browser.' },
});
export const PreferencesResult = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ locale: LocaleSchema }),
});

export const StaffList = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      first_name: Type.String(),
      last_name: Type.String(),
      email: Type.String(),
      role: RoleSchema,
    }),
    { description: 'Active support staff and administrators, by first and last name.' },
  ),
});

export const LinkParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 100, description: 'The secret part of the sign-in link.' }),
});

export const LinkPage = Type.String({ description: 'A small HTML page (text/html).' });

export const LinkResult = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({
    url: Type.String({
      description: 'Open in the staff member’s browser: a page with one "Sign in" button. Works once, for 15 minutes.',
    }),
    expires_at: Timestamp,
  }),
});

export const SessionParams = Type.Object({
  id: { ...IntegerId, description: "The platform's id of the user." },
  session_id: { ...IntegerId, description: 'Id of the console session.' },
});

export const SessionList = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      user_agent: Type.Union([Type.String(), Type.Null()], { description: 'The browser that signed in.' }),
      created_at: Timestamp,
      last_seen_at: { ...Timestamp, description: 'Last request (written at most once a minute).' },
      idle_expires_at: Timestamp,
      expires_at: Timestamp,
    }),
    { description: 'The user’s live console sessions, newest first.' },
  ),
});

export const EndedResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  count: Type.Integer({ description: 'Sessions ended by this call (0 when they already were).' }),
});

/** The tag of the staff console's sign-in and session operations in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: 'console',
    description: 'Sign-in to the staff console by one-time link, its cookie session, preferences and the staff list.',
  },
];

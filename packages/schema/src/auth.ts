import Type, { type Static } from 'typebox';

/** POST /auth/access_token, form encoded. */
export const TokenRequest = Type.Object({
  grant_type: Type.String({ description: '`client_credentials` (or `authorization_code`)' }),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String({ description: 'Space-separated family names, e.g. `members groups`' })),
  code: Type.Optional(Type.String()),
  redirect_uri: Type.Optional(Type.String()),
  code_verifier: Type.Optional(Type.String()),
});
export type TokenRequest = Static<typeof TokenRequest>;

/** The `data` of the token response. */
export const TokenData = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    scope: Type.String({ description: 'The granted scopes, space-separated, in the order requested' }),
  },
  { additionalProperties: false },
);
export type TokenData = Static<typeof TokenData>;

/** An RFC 6749 section 5.2 error of the token endpoint. */
export const OAuthError = Type.Object({
  error: Type.String(),
  error_description: Type.String(),
  message: Type.String(),
});

/** Where the RFC endpoints live, beside the interface's own under /api/v1. */
export const OAUTH_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  register: '/oauth/register',
} as const;

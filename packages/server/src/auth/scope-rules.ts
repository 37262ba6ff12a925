/**
 * Which scopes a user's role may use: the one rule every door that grants a scope (the console's
 * forms, the command line, the OAuth approval and token grant) and the guard that serves a call
 * apply (docs/console.md, "Admin-only families").
 */

import { SCOPES, type Scope } from '@assay/schema';
import { BusinessError } from '../domain/errors.js';
import type { UserRow } from './auth.table.js';

export type Role = UserRow['role'];

/**
 * The families only an admin may use. The audit log names every operator's sign-ins, invitations
 * and addresses, which the users pages and the log's own console page show to admins only; every
 * other family is about the members, groups and campaigns every user of an instance sees.
 */
export const ADMIN_SCOPES: readonly Scope[] = ['audit'];

/** True for a family only an admin may use. */
export const isAdminScope = (scope: string): boolean => (ADMIN_SCOPES as readonly string[]).includes(scope);

/** The scopes a user of this role may give their clients and keys, and use. */
export function grantableScopes(role: Role): readonly Scope[] {
  return role === 'admin' ? SCOPES : SCOPES.filter((scope) => !isAdminScope(scope));
}

/** Those of `scopes` a user of this role may use, in their order. */
export function scopesWithin(role: Role, scopes: readonly string[]): string[] {
  const grantable: readonly string[] = grantableScopes(role);
  return scopes.filter((scope) => grantable.includes(scope));
}

/** Those of `scopes` a user of this role may not use, in their order. */
export function scopesBeyond(role: Role, scopes: readonly string[]): string[] {
  const within = scopesWithin(role, scopes);
  return scopes.filter((scope) => !within.includes(scope));
}

/** The words of the refusal, naming the scopes (after `scopes: ` or `scope: `, or in a sentence). */
export const adminOnlyProblem = (scopes: readonly string[]) => `only an admin may use ${scopes.join(' ')}`;

/**
 * A client or key refused scopes its user's role may not use: `scopes: only an admin may use audit`.
 * The form that asked shows `problem` next to its scopes; the refused scopes are `scopes`.
 */
export class ScopesBeyondRole extends BusinessError {
  readonly field = 'scopes' as const;
  readonly problem: string;
  constructor(readonly scopes: readonly string[]) {
    const problem = adminOnlyProblem(scopes);
    super(`scopes: ${problem}`);
    this.problem = problem;
  }
}

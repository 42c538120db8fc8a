/**
 * Whether a graph store's login may act as the configured user (pure, free
 * of the Bolt driver so doctor can name the refusal without loading it).
 *
 * rgraph keeps Touches per `[identity] user_id`, a string in each person's
 * config. Where the server names the connection's login (`SHOW CURRENT
 * USER`: Neo4j 4.2+ Community and Enterprise, Memgraph 2.18+), that login
 * must be the user id, so a config that claims another user's id needs that
 * user's password too. A team that shares one login says so
 * (`[store] shared_login = true`): its Touches are then private by
 * convention only, as SECURITY.md states.
 *
 * @module
 */

import { UserError } from "../errors.ts";

/**
 * Why `login` may not act as `userId`, or null when it may: a server that
 * names the connection's login (`SHOW CURRENT USER`) must name the user
 * whose Touches rgraph reads and writes, unless the config says the login
 * is the team's (`[store] shared_login`). A server without logins cannot
 * tell users apart at all, which SECURITY.md states.
 *
 * @example
 * ```ts
 * loginMismatch("bob", "alice", false); // "the store login 'bob' is not … 'alice' …"
 * loginMismatch("alice", "alice", false); // null
 * ```
 */
export function loginMismatch(
  login: string | null,
  userId: string | null,
  sharedLogin: boolean,
): string | null {
  if (login === null || userId === null || sharedLogin || login === userId) return null;
  return `the store login '${login}' is not [identity] user_id '${userId}': Touches belong to ` +
    `user_id, so connect with your own login ([store] user), or, if the whole team shares one ` +
    `login, say so with [store] shared_login = true`;
}

/** A graph store whose login is not the configured user's (see {@link loginMismatch}). */
export class LoginMismatchError extends UserError {
  constructor(readonly login: string, message: string) {
    super(message);
    this.name = "LoginMismatchError";
  }
}

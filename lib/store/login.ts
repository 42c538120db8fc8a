/**
 * Whether a graph store's login may act as the configured user (pure, free
 * of the Bolt driver so doctor can name the refusal without loading it).
 *
 * rgraph keeps Touches per `[identity] user_id`, a string in each person's
 * config. Where the server names the connection's login (`SHOW CURRENT
 * USER`: Neo4j 4.2+ Community and Enterprise, Memgraph 2.18+), that login
 * must be the user id, so a config that claims another user's id needs that
 * user's password too. Whether a team shares one login instead is the
 * server's to say, not one person's config: whoever sets the server up
 * writes it once ({@link SHARED_LOGIN_STEP}), and each member's
 * `[store] shared_login = true` only acknowledges it. A config claiming a
 * shared login the server does not declare is refused, as is a shared login
 * a config has not acknowledged; its Touches are then private by convention
 * only, as SECURITY.md states.
 *
 * @example
 * ```ts
 * import { loginMismatch } from "./login.ts";
 * loginMismatch({ login: "bob", userId: "alice", configShared: true, serverShared: false });
 * // { problem: "[store] shared_login = true, but the server …", fix: "connect with your own login …" }
 * ```
 * @module
 */

import { UserError } from "../errors.ts";

/**
 * The Cypher whoever sets up a team's server runs once (in cypher-shell or
 * the Neo4j or Memgraph browser) when the whole team shares one login.
 */
export const SHARED_LOGIN_STEP = "MERGE (t:RgraphSetting {name: 'team'}) SET t.shared_login = true";

/** Reads what the server says: one row, `shared` true when the team shares one login. */
export const SHARED_LOGIN_QUERY =
  "OPTIONAL MATCH (t:RgraphSetting {name: 'team'}) RETURN t.shared_login = true AS shared";

/** What {@link loginMismatch} decides from. */
export interface LoginFacts {
  /** The login the server names (`SHOW CURRENT USER`), or null when it names none. */
  login: string | null;
  userId: string | null;
  /** The config's `[store] shared_login`. */
  configShared: boolean;
  /** Whether the server says its team shares one login ({@link SHARED_LOGIN_STEP}). */
  serverShared: boolean;
}

/** Why a login may not act as the configured user, and the one thing to do. */
export interface LoginRefusal {
  problem: string;
  fix: string;
}

/**
 * Why `facts.login` may not act as `facts.userId`, or null when it may: the
 * login must be the user id, unless the server says the team shares one
 * login and the config acknowledges it. A config claiming a shared login the
 * server does not declare is refused whatever the login. A server without
 * logins cannot tell users apart at all, which SECURITY.md states.
 *
 * @example
 * ```ts
 * loginMismatch({ login: "alice", userId: "alice", configShared: false, serverShared: false }); // null
 * ```
 */
export function loginMismatch(facts: LoginFacts): LoginRefusal | null {
  const { login, userId, configShared, serverShared } = facts;
  if (login === null || userId === null) return null;
  if (configShared && !serverShared) {
    return {
      problem: `[store] shared_login = true, but the server does not say its team shares one ` +
        `login (whoever sets the server up decides that, once, on the server: see SECURITY.md)`,
      fix:
        `connect with your own login ([store] user = "${userId}") and remove [store] shared_login`,
    };
  }
  if (login === userId || configShared) return null;
  return {
    problem: `the store login '${login}' is not [identity] user_id '${userId}' (Touches belong ` +
      `to user_id)`,
    fix: serverShared
      ? `the server says its team shares the login '${login}': add [store] shared_login = true`
      : `connect with your own login ([store] user = "${userId}")`,
  };
}

/** A graph store whose login may not act as the configured user (see {@link loginMismatch}). */
export class LoginMismatchError extends UserError {
  constructor(readonly login: string, readonly refusal: LoginRefusal, where: string) {
    super(`${where}: ${refusal.problem}: ${refusal.fix}`);
    this.name = "LoginMismatchError";
  }
}

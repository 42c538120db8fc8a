/**
 * The reference edges a Resource declares, from its own fields, in the graph
 * model's direction: `(:Resource)-[:REFERENCES]->(:Resource)` reads "mentions",
 * `(:PullRequest)-[:CLOSES]->(:Issue)` reads "closes". An item learns who
 * mentions it from its own timeline (`referenced_by`), so those edges point
 * at the declaring item; a pull request's `closes` point away from it.
 * Both stores draw and redraw exactly these, keyed by the declaring Resource.
 * Pure: no I/O.
 *
 * @example
 * ```ts
 * import { declaredEdges } from "./declared.ts";
 * // issue #7 is mentioned by pull request #9:
 * declaredEdges({ kind: "issue", address: "github:acme/rocket#7",
 *   referenced_by: ["https://github.com/acme/rocket/pull/9"] } as never);
 * // [{ kind: "REFERENCES", key: "github:acme/rocket#9", direction: "in" }]
 * ```
 * @module
 */

import { itemAddress } from "../address/mod.ts";
import type { EdgeKind, Resource } from "../types.ts";

/**
 * Which way an edge runs relative to the Resource declaring it:
 * `out` = (declaring)-[kind]->(other), `in` = (other)-[kind]->(declaring).
 */
export type EdgeDirection = "out" | "in";

/** One edge a Resource declares, to the item key of its other end. */
export interface DeclaredEdge {
  kind: EdgeKind;
  /** Item key of the other end (stored or not). */
  key: string;
  direction: EdgeDirection;
}

/**
 * The item key a reference names: a github.com issue or pull URL, an API URL,
 * or an item key already. `null` for anything else (it is not an edge).
 *
 * @example
 * ```ts
 * referenceKey("https://github.com/Acme/Rocket/pull/5"); // "github:acme/rocket#5"
 * ```
 */
export function referenceKey(text: string): string | null {
  const key = /^github:([^/#?\s]+)\/([^/#?\s]+)#(\d+)$/.exec(text);
  if (key) return itemAddress(key[1], key[2], Number(key[3])).key;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const parts = url.pathname.split("/").filter((p) => p !== "");
  const host = url.hostname.toLowerCase();
  if (host === "api.github.com" && parts[0] === "repos") parts.shift();
  else if (host !== "github.com" && host !== "www.github.com") return null;
  const [owner, repo, section, num] = parts;
  if (!owner || !repo || !["issues", "pull", "pulls"].includes(section ?? "")) return null;
  if (!/^\d+$/.test(num ?? "") || Number(num) <= 0) return null;
  return itemAddress(owner, repo, Number(num)).key;
}

/**
 * The edges `r` declares: one per distinct usable reference, never to itself
 * (its current address), in a stable order.
 */
export function declaredEdges(r: Resource): DeclaredEdge[] {
  if (r.kind === "repository") return [];
  const named: [EdgeKind, EdgeDirection, string][] = r.referenced_by.map((u) => [
    "REFERENCES",
    "in",
    u,
  ]);
  if (r.kind === "pull_request") { for (const u of r.closes) named.push(["CLOSES", "out", u]); }
  const out = new Map<string, DeclaredEdge>();
  for (const [kind, direction, url] of named) {
    const key = referenceKey(url);
    if (key === null || key === r.address) continue;
    out.set(`${kind} ${direction} ${key}`, { kind, key, direction });
  }
  return [...out.values()];
}

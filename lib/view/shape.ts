/**
 * What the view's pages are made of, shaped from what the store returns:
 * Touches grouped into sessions, Cache Reads counted per day, one
 * Resource's page with its neighbours. Pure: no store, no clock.
 *
 * @example
 * ```ts
 * import { hitRateByDay, sessionsOf } from "./shape.ts";
 * const touches = await store.listTouches("alice");
 * sessionsOf(touches)[0].touches.length; // the newest session's Touches, in time order
 * hitRateByDay(touches); // [{ day: "2026-12-01", hit: 3, subsumed: 0, miss: 1 }]
 * ```
 * @module
 */

import type { Edge, ResourceHead } from "../store/mod.ts";
import type { Resource, Touch } from "../types.ts";
import { readText, statusText, touchJson } from "../user_data/mod.ts";

/** A Touch as the page shows it: its JSON, with its read and status in `rgraph touches`' words. */
export type ShownTouch = ReturnType<typeof touchJson> & { read: string; status_text: string };

/** One harness session's Touches, in time order. */
export interface SessionView {
  harness: string | null;
  session_id: string | null;
  first: string;
  last: string;
  /** How many Touches of each status as `rgraph touches` writes it (`served:hit`, `unresolved:not_found`). */
  counts: Record<string, number>;
  /** The session's Touches in time order: its newest {@link TOUCHES_SHOWN} at most. */
  touches: ShownTouch[];
  /** How many earlier Touches of the session are left out. */
  earlier: number;
}

/** Touches shown per session: a page stays quick to draw however long a session ran. */
export const TOUCHES_SHOWN = 100;

/**
 * Touches (oldest first, as the store lists them) grouped by harness and
 * session, each group in time order; the session active last comes first.
 * Cache Reads asked outside any session (`rgraph lookup`) form their own group.
 * Counts cover every Touch; a long session keeps its newest {@link TOUCHES_SHOWN}.
 */
export function sessionsOf(touches: Touch[]): SessionView[] {
  const groups = new Map<string, SessionView>();
  for (const t of touches) {
    const key = JSON.stringify([t.harness, t.session_id]);
    let g = groups.get(key);
    if (!g) {
      g = {
        harness: t.harness,
        session_id: t.session_id,
        first: t.recorded_at,
        last: t.recorded_at,
        counts: {},
        touches: [],
        earlier: 0,
      };
      groups.set(key, g);
    }
    if (t.recorded_at < g.first) g.first = t.recorded_at;
    if (t.recorded_at > g.last) g.last = t.recorded_at;
    const label = statusText(t);
    g.counts[label] = (g.counts[label] ?? 0) + 1;
    g.touches.push({ ...touchJson(t), read: readText(t), status_text: label });
    if (g.touches.length > TOUCHES_SHOWN) {
      g.touches.shift();
      g.earlier++;
    }
  }
  return [...groups.values()].sort((a, b) => (a.last < b.last ? 1 : a.last > b.last ? -1 : 0));
}

/** One day's Cache Reads by outcome. */
export interface DayReads {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  hit: number;
  subsumed: number;
  miss: number;
}

/** The user's Cache Reads counted per UTC day, oldest day first (days without one are left out). */
export function hitRateByDay(touches: Touch[]): DayReads[] {
  const days = new Map<string, DayReads>();
  for (const t of touches) {
    if (t.status !== "served" || t.outcome === null) continue;
    const day = t.recorded_at.slice(0, 10);
    const d = days.get(day) ?? { day, hit: 0, subsumed: 0, miss: 0 };
    d[t.outcome]++;
    days.set(day, d);
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** One end of a reference on a Resource's page. */
export interface Neighbour {
  address: string;
  kind: ResourceHead["kind"] | null;
  title: string | null;
}

/** A Resource's page: its stored content and the references in and out. */
export interface ResourcePage {
  resource: Resource;
  edges: Edge[];
  /** The Resource and every other end of its edges, with titles where stored. */
  nodes: Neighbour[];
}

/**
 * The page of `resource` from its edges and the heads of their other ends.
 *
 * @example
 * ```ts
 * const edges = await store.edges(pr.address);
 * const heads = await store.getHeads(edges.flatMap((e) => [e.from, e.to]));
 * resourcePage(pr, edges, heads).nodes; // the pull request and each issue it closes or mentions
 * ```
 */
export function resourcePage(
  resource: Resource,
  edges: Edge[],
  heads: Map<string, ResourceHead>,
): ResourcePage {
  const addresses = new Set([resource.address]);
  for (const e of edges) addresses.add(e.from).add(e.to);
  const nodes = [...addresses].map((address) => {
    const head = heads.get(address);
    return { address, kind: head?.kind ?? null, title: head?.title ?? null };
  });
  return { resource, edges, nodes };
}

/**
 * Every string in `value` passed through `clean` (objects and arrays
 * copied, everything else kept): the view's answers go through the one
 * rule for untrusted text as a whole, so no field can be forgotten.
 *
 * @example
 * ```ts
 * cleanStrings({ title: "a\u202Eb", n: 1 }, (s) => s.toUpperCase()); // { title: "A\u202EB", n: 1 }
 * ```
 */
export function cleanStrings<T>(value: T, clean: (text: string) => string): T {
  if (typeof value === "string") return clean(value) as T;
  if (Array.isArray(value)) return value.map((v) => cleanStrings(v, clean)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cleanStrings(v, clean);
    return out as T;
  }
  return value;
}

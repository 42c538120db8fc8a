/**
 * The GraphQL source (used with a token): items by number in aliased
 * batches, Listings a page of 100 (issues) or 40 (pull requests) at a time at
 * full depth, long threads finished with batched continuation queries, and
 * `updatedAt` probes for revalidation. Renamed repositories and transferred
 * issues that GraphQL does not resolve are located through REST's 301s.
 *
 * @example
 * ```ts
 * import { GraphqlSource } from "./graphql_source.ts";
 * const source = new GraphqlSource(client, rest);
 * for await (const page of source.listingPages(address, 500)) store(page.items);
 * ```
 * @module
 */

import type { ItemResource, ListingAddress, RepositoryResource } from "../types.ts";
import { redact } from "../errors.ts";
import { type Decoder, nullable, num, obj, str } from "./decode.ts";
import type { GqlError, GqlResult, GraphqlClient } from "./graphql.ts";
import { ONE_TRY, type RetryPolicy, TransientError } from "./http.ts";
import { itemResource, readmeName, repositoryResource, splitNameWithOwner } from "./map.ts";
import {
  type Continuation,
  CONTINUATION_BATCH,
  type ContinuationField,
  continuations,
  ITEM_BATCH,
  itemsByNumber,
  listingPage,
  listingSince,
  pageSize,
  planListing,
  PROBE_BATCH,
  probeItems,
  probeRepository,
  rateLimitQuery,
  readmeBlob,
  repository as repositoryQuery,
} from "./queries.ts";
import type { RestClient } from "./rest.ts";
import {
  type Budget,
  type ChangedHead,
  failedFetch,
  type Fetched,
  type ListingPage,
  type RateResource,
  type RepositoryAlong,
  type Revalidated,
  type Source,
  type StoredHead,
  UnavailableError,
} from "./source.ts";
import {
  CommentNode,
  connection,
  CrossReference,
  ItemHead,
  ItemNode,
  ItemProbe,
  type Page,
  Reference,
  RepoHead,
  RepositoryNode,
  RepositoryProbe,
  ReviewCommentNode,
  ReviewThread,
} from "./types.ts";

const CONTINUATION_DECODERS: Record<ContinuationField, Decoder<Page<unknown>>> = {
  comments: connection(CommentNode),
  timelineItems: connection(CrossReference),
  files: connection(obj({ path: str })),
  reviewThreads: connection(ReviewThread),
  threadComments: connection(ReviewCommentNode),
  closingIssuesReferences: connection(Reference),
};

/** A connection still to be completed, and the page object its nodes go into. */
interface Open {
  cont: Continuation;
  into: Page<unknown>;
}

function chunks<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

function openThreads(threads: ReviewThread[]): Open[] {
  return threads.filter((t) => t.comments.pageInfo.hasNextPage).map((t) => ({
    cont: {
      nodeId: t.id,
      type: "PullRequestReviewThread",
      field: "threadComments",
      after: t.comments.pageInfo.endCursor!,
    },
    into: t.comments as Page<unknown>,
  }));
}

/** Every nested connection of `node` that has more than one page. */
function openConnections(node: ItemNode): Open[] {
  const type = node.__typename;
  const fields: [ContinuationField, Page<unknown>][] = [
    ["comments", node.comments],
    ["timelineItems", node.timelineItems],
  ];
  if (node.__typename === "PullRequest") {
    fields.push(
      ["files", node.files],
      ["reviewThreads", node.reviewThreads],
      ["closingIssuesReferences", node.closingIssuesReferences],
    );
  }
  const out: Open[] = fields.filter(([, page]) => page.pageInfo.hasNextPage).map((
    [field, into],
  ) => ({
    cont: { nodeId: node.id, type, field, after: into.pageInfo.endCursor! },
    into,
  }));
  if (node.__typename === "PullRequest") out.push(...openThreads(node.reviewThreads.nodes));
  return out;
}

/** The errors GitHub attached at `path` or anywhere inside it. */
function errorsUnder(errors: GqlError[], path: (string | number)[]): GqlError[] {
  return errors.filter((e) =>
    Array.isArray(e.path) && e.path.length >= path.length && path.every((p, i) => e.path![i] === p)
  );
}

/** GitHub's message for an error, with its type when it has one. */
function errorMessage(e: GqlError): string {
  return redact(
    `GitHub GraphQL: ${e.type ? `${e.type}: ` : ""}${String(e.message).split("\n")[0]}`,
  );
}

/**
 * A repository GraphQL answered null for, by the error on it: missing
 * (NOT_FOUND, or no error at all), else a failure of the whole query.
 */
function checkRepository(result: GqlResult, alias = "repository"): void {
  const [e] = errorsUnder(result.errors, [alias]).filter((x) => x.path!.length === 1);
  if (e && e.type !== "NOT_FOUND" && !result.data[alias]) {
    throw new TransientError(errorMessage(e), { answered: true });
  }
}

function repoOf(result: GqlResult, alias = "repository"): RepoHead | null {
  const v = result.data[alias];
  return v === null || v === undefined ? null : RepoHead(v, alias);
}

function changedHead(h: ItemHead): ChangedHead {
  return {
    number: h.number,
    kind: h.__typename === "Issue" ? "issue" : "pull_request",
    updated_at: h.updatedAt,
    state: h.state === "OPEN" ? "open" : h.state === "MERGED" ? "merged" : "closed",
    author: h.author?.login ?? null,
    labels: h.labels.map((l) => l.name),
    assignees: h.assignees.map((a) => a.login),
    milestone: h.milestone?.title ?? null,
  };
}

/** The later of two ISO times (a repository changes on push as well as on edits). */
function later(a: string, b: string | null): string {
  return b !== null && b > a ? b : a;
}

/** The GraphQL implementation of {@link Source}. */
export class GraphqlSource implements Source {
  readonly mode = "graphql";
  constructor(readonly client: GraphqlClient, readonly rest: RestClient | null) {}

  requests(): number {
    return this.client.requests + (this.rest?.requests ?? 0);
  }

  /**
   * Every response carries `rateLimit`; before the first one, a query of the
   * budget alone tells whether large work can ever fit this token's hour.
   */
  async learnBudget(): Promise<void> {
    if (this.client.rate === null) await this.client.query(rateLimitQuery());
  }

  readonly main = "graphql";

  /** GraphQL points; `core` is the REST budget the few REST follow-ups (where a 404 led) spend. */
  budget(resource: RateResource = "graphql"): Budget {
    if (resource !== "graphql") {
      return this.rest?.budgets.get(resource) ?? { remaining: null, limit: null, resetAt: null };
    }
    const r = this.client.rate;
    return {
      remaining: r?.remaining ?? null,
      limit: r?.limit ?? null,
      resetAt: r?.resetAt ?? null,
    };
  }

  budgets(): Partial<Record<RateResource, Budget>> {
    const out: Partial<Record<RateResource, Budget>> = { ...this.rest?.budgets.all() };
    if (this.client.rate) out.graphql = this.budget("graphql");
    return out;
  }

  /** Points are compared with the whole hour's budget (GitHub: 5,000), once a response has told it. */
  affordable(estimate: number, resource: RateResource = "graphql"): boolean {
    const { limit } = this.budget(resource);
    return limit === null || estimate <= limit;
  }

  async items(
    owner: string,
    repo: string,
    numbers: number[],
    along?: RepositoryAlong,
  ): Promise<Map<number, Fetched<ItemResource>>> {
    const out = new Map<number, Fetched<ItemResource>>();
    await Promise.all(
      chunks(numbers, ITEM_BATCH).map(async (batch, i) => {
        // The first batch brings the repository along; the others need not.
        const found = await this.#splitting(owner, repo, batch, i === 0 ? along : undefined);
        for (const [n, r] of found) out.set(n, r);
      }),
    );
    return out;
  }

  /**
   * One batch of items. When GitHub fails it as a whole (an error answer,
   * not a network failure), its halves are asked apart, down to single
   * items, so every good item in it still resolves and one GitHub fails on
   * alone comes back `failed`. A half is asked once: the batch it came from
   * was retried already.
   */
  async #splitting(
    owner: string,
    repo: string,
    numbers: number[],
    along?: RepositoryAlong,
    retry?: RetryPolicy,
  ): Promise<Map<number, Fetched<ItemResource>>> {
    try {
      return await this.#itemBatch(owner, repo, numbers, along, retry);
    } catch (e) {
      if (!(e instanceof TransientError) || !e.answered) throw e;
      if (numbers.length === 1) return new Map([[numbers[0], failedFetch(e)!]]);
      const half = Math.ceil(numbers.length / 2);
      // The repository still comes along with the first half.
      const parts = await Promise.all(
        [numbers.slice(0, half), numbers.slice(half)].map((ns, i) =>
          this.#splitting(owner, repo, ns, i === 0 ? along : undefined, ONE_TRY)
        ),
      );
      return new Map(parts.flatMap((m) => [...m]));
    }
  }

  async #itemBatch(
    owner: string,
    repo: string,
    numbers: number[],
    along?: RepositoryAlong,
    retry?: RetryPolicy,
  ): Promise<Map<number, Fetched<ItemResource>>> {
    const fetchedAt = new Date().toISOString();
    const result = await this.client.query(itemsByNumber(owner, repo, numbers, !!along), retry);
    checkRepository(result);
    if (along) await this.#deliver(result, along, fetchedAt);
    const out = new Map<number, Fetched<ItemResource>>();
    const head = repoOf(result);
    if (head && head.visibility !== "PUBLIC") {
      for (const n of numbers) out.set(n, { status: "not_public" });
      return out;
    }
    const found: [number, ItemNode][] = [];
    const missing: [number, GqlError | null][] = [];
    numbers.forEach((n, i) => {
      const raw = head ? (result.data.repository as Record<string, unknown>)[`i${i}`] : null;
      const [error] = errorsUnder(result.errors, ["repository", `i${i}`]);
      if (raw === null || raw === undefined) return missing.push([n, error ?? null]);
      // Present, but with an error inside: part of it is missing, so none of it is stored.
      if (error) {
        return out.set(n, { status: "failed", message: errorMessage(error), counts: true });
      }
      const node = ItemNode(raw, `repository.i${i}`);
      if (node.repository.visibility !== "PUBLIC") out.set(n, { status: "not_public" });
      else found.push([n, node]);
    });
    await this.#complete(found.map(([, node]) => node));
    for (const [n, node] of found) {
      out.set(n, { status: "ok", value: itemResource(node, fetchedAt) });
    }
    await Promise.all(
      missing.map(async ([n, error]) => out.set(n, await this.#missing(owner, repo, n, error))),
    );
    return out;
  }

  /**
   * A number GraphQL gave no node for: REST tells whether it is gone
   * (404/410: not found), moved (a transferred issue, a renamed repository:
   * fetched where it is now) or there after all (200: GitHub's GraphQL
   * failed on it, so it is retried later, never taken for not found).
   * Without REST, GraphQL's own error decides: NOT_FOUND (or none) is not found.
   */
  async #missing(
    owner: string,
    repo: string,
    n: number,
    error: GqlError | null,
  ): Promise<Fetched<ItemResource>> {
    const failure: Fetched<ItemResource> = {
      status: "failed",
      message: error ? errorMessage(error) : "GitHub GraphQL answered no item, though it exists",
      counts: true,
    };
    if (!this.rest) {
      return error === null || error.type === "NOT_FOUND" ? { status: "not_found" } : failure;
    }
    let located;
    try {
      located = await this.rest.locateItem(owner, repo, n);
    } catch (e) {
      const failed = failedFetch(e);
      if (failed) return failed;
      throw e;
    }
    if (located.status === "failed") {
      return { status: "failed", message: located.message, counts: true };
    }
    if (located.status !== "moved") return { status: located.status };
    const { owner: o, repo: r, number } = located;
    if (
      o.toLowerCase() === owner.toLowerCase() && r.toLowerCase() === repo.toLowerCase() &&
      number === n
    ) {
      return failure;
    }
    const again = (await this.#splitting(o, r, [number])).get(number);
    return again ?? { status: "not_found" };
  }

  /** Fetches the remaining pages of every long thread, batched across items. */
  async #complete(nodes: ItemNode[]): Promise<void> {
    let open = nodes.flatMap(openConnections);
    while (open.length) {
      const next: Open[] = [];
      await Promise.all(
        chunks(open, CONTINUATION_BATCH).map(async (batch) => {
          const result = await this.client.query(continuations(batch.map((o) => o.cont)));
          batch.forEach((o, i) => {
            // A page GitHub failed on would leave a thread short: the item is asked again.
            const [error] = errorsUnder(result.errors, [`c${i}`]);
            if (error && error.type !== "NOT_FOUND") {
              throw new TransientError(errorMessage(error), { answered: true });
            }
            const owner = result.data[`c${i}`] as Record<string, unknown> | null;
            if (!owner) return; // the node vanished meanwhile: keep what we have
            const field = o.cont.field === "threadComments" ? "comments" : o.cont.field;
            const page = CONTINUATION_DECODERS[o.cont.field](owner[field], `c${i}.${field}`);
            o.into.nodes.push(...page.nodes);
            o.into.pageInfo = page.pageInfo;
            if (page.pageInfo.hasNextPage) {
              next.push({ cont: { ...o.cont, after: page.pageInfo.endCursor! }, into: o.into });
            }
            if (o.cont.field === "reviewThreads") {
              next.push(...openThreads(page.nodes as ReviewThread[]));
            }
          });
        }),
      );
      open = next;
    }
  }

  async revalidateItems(
    owner: string,
    repo: string,
    stored: StoredHead[],
  ): Promise<Map<number, Revalidated<ItemResource>>> {
    const out = new Map<number, Revalidated<ItemResource>>();
    const refetch: number[] = [];
    await Promise.all(
      chunks(stored, PROBE_BATCH).map(async (batch) => {
        let result;
        try {
          result = await this.client.query(probeItems(owner, repo, batch.map((s) => s.number)));
          checkRepository(result);
        } catch (e) {
          // GitHub failed the probe as a whole: fetching splits what it fails on.
          if (!(e instanceof TransientError) || !e.answered) throw e;
          return refetch.push(...batch.map((s) => s.number));
        }
        const head = repoOf(result);
        batch.forEach((s, i) => {
          if (head && head.visibility !== "PUBLIC") {
            return out.set(s.number, { status: "not_public" });
          }
          const raw = head ? (result.data.repository as Record<string, unknown>)[`i${i}`] : null;
          const probe = raw ? ItemProbe(raw, `repository.i${i}`) : null;
          if (probe && probe.updatedAt === s.updated_at) out.set(s.number, { status: "unchanged" });
          else refetch.push(s.number);
        });
      }),
    );
    if (refetch.length) {
      for (const [n, r] of await this.items(owner, repo, refetch)) out.set(n, r);
    }
    return out;
  }

  async repository(
    owner: string,
    repo: string,
    stored: { updated_at: string; etag: string | null } | null,
  ): Promise<Revalidated<RepositoryResource>> {
    if (stored) {
      const result = await this.client.query(probeRepository(owner, repo));
      const raw = result.data.repository;
      if (raw) {
        const probe = RepositoryProbe(raw, "repository");
        if (probe.visibility !== "PUBLIC") return { status: "not_public" };
        if (later(probe.updatedAt, probe.pushedAt) === stored.updated_at) {
          return { status: "unchanged" };
        }
      }
    }
    return await this.#repository(owner, repo, true);
  }

  async #repository(
    owner: string,
    repo: string,
    locate: boolean,
  ): Promise<Fetched<RepositoryResource>> {
    const fetchedAt = new Date().toISOString();
    let result;
    try {
      result = await this.client.query(repositoryQuery(owner, repo));
      checkRepository(result);
    } catch (e) {
      const failed = failedFetch(e);
      if (failed) return failed;
      throw e;
    }
    const raw = result.data.repository;
    if (!raw) {
      const located = locate ? await this.rest?.locateRepository(owner, repo) : null;
      if (located?.status === "moved") {
        return await this.#repository(located.owner, located.repo, false);
      }
      return { status: located?.status === "not_public" ? "not_public" : "not_found" };
    }
    const node = RepositoryNode(raw, "repository");
    if (node.visibility !== "PUBLIC") return { status: "not_public" };
    return { status: "ok", value: await this.#repositoryResource(node, fetchedAt) };
  }

  /** A public repository's Resource, with its README (a second request when it is not README.md). */
  async #repositoryResource(node: RepositoryNode, fetchedAt: string): Promise<RepositoryResource> {
    let readme: { path: string; text: string } | null = null;
    if (typeof node.readme?.text === "string") {
      readme = { path: "README.md", text: node.readme.text };
    } else {
      const name = readmeName(node.root?.entries ?? []);
      if (name) {
        const { owner: o, repo: r } = splitNameWithOwner(node.nameWithOwner);
        const blob = await this.client.query(readmeBlob(o, r, name));
        const text = nullable(obj({ readme: nullable(obj({ text: nullable(str) })) }))(
          blob.data.repository,
          "repository",
        )?.readme?.text;
        if (typeof text === "string") readme = { path: name, text };
      }
    }
    const resource = repositoryResource(node, readme, fetchedAt);
    resource.updated_at = later(node.updatedAt, node.pushedAt);
    return resource;
  }

  /** Hands `along` the repository a response brought (its root `repository`), or null. */
  async #deliver(result: GqlResult, along: RepositoryAlong, fetchedAt: string): Promise<void> {
    const raw = result.data.repository;
    const node = raw ? RepositoryNode(raw, "repository") : null;
    along.found(
      node?.visibility === "PUBLIC" ? await this.#repositoryResource(node, fetchedAt) : null,
    );
  }

  async *listingPages(
    address: ListingAddress,
    limit: number,
    along?: RepositoryAlong,
  ): AsyncGenerator<ListingPage> {
    const plan = planListing(address);
    const size = pageSize(address);
    const fetchPage = (after: string | null, want: number) =>
      this.client.query((attempt) =>
        listingPage(
          address.owner,
          address.repo,
          plan,
          Math.max(1, want >> attempt),
          after,
          // Only the first page brings the repository along.
          after === null && !!along,
        )
      );
    const fetchedAt = new Date().toISOString();
    let fetched = 0;
    // Members with threads longer than a page wait here, so their
    // continuations are batched across pages instead of one request per page.
    let deferred: [number, ItemNode][] = [];
    let pending: Promise<GqlResult> | null = fetchPage(null, Math.min(size, limit));
    let first = true;
    while (pending) {
      const result: GqlResult = await pending;
      pending = null;
      if (first && along) await this.#deliver(result, along, fetchedAt);
      first = false;
      let conn: unknown;
      let total: number | null = null;
      if (plan.via === "search") {
        conn = result.data.search;
        total = obj({ issueCount: num })(conn, "search").issueCount;
      } else {
        const head = repoOf(result);
        if (!head) throw new UnavailableError("not_found");
        if (head.visibility !== "PUBLIC") throw new UnavailableError("not_public");
        conn = (result.data.repository as Record<string, unknown>)[plan.via];
      }
      // A member GitHub failed on (a null node, or one with part of it missing) is never left
      // out of a Listing stored as if it were whole: the Listing waits for a later Sweep.
      const [error] = errorsUnder(
        result.errors,
        plan.via === "search" ? ["search"] : ["repository", plan.via],
      );
      if (error) throw new TransientError(errorMessage(error), { answered: true });
      const c = connection(ItemNode)(conn, plan.via);
      if (c.nodes.some((n) => n.repository.visibility !== "PUBLIC")) {
        throw new UnavailableError("not_public");
      }
      const nodes = c.nodes.slice(0, limit - fetched).map((n, i): [number, ItemNode] => [
        fetched + i,
        n,
      ]);
      fetched += nodes.length;
      if (c.pageInfo.hasNextPage && fetched < limit && nodes.length > 0) {
        // Ask for the next page now: its latency overlaps storing this one.
        pending = fetchPage(c.pageInfo.endCursor, Math.min(size, limit - fetched));
        pending.catch(() => {});
      }
      const ready = nodes.filter(([, n]) => openConnections(n).length === 0);
      deferred.push(...nodes.filter(([, n]) => openConnections(n).length > 0));
      if (deferred.length >= CONTINUATION_BATCH || (!pending && deferred.length)) {
        await this.#complete(deferred.map(([, n]) => n));
        ready.push(...deferred);
        deferred = [];
      }
      yield {
        items: ready.map(([, n]) => itemResource(n, fetchedAt)),
        positions: ready.map(([i]) => i),
        totalCount: total ?? c.totalCount ?? fetched,
      };
    }
  }

  async listingChanges(
    address: ListingAddress,
    since: string,
  ): Promise<{ totalCount: number | null; changed: ChangedHead[] } | null> {
    const plan = planListing(address);
    if (plan.via === "search") return null;
    const changed: ChangedHead[] = [];
    let totalCount = 0;
    let after: string | null = null;
    for (;;) {
      const result = await this.client.query(
        listingSince(address.owner, address.repo, plan, since, after),
      );
      const head = repoOf(result);
      if (!head) throw new UnavailableError("not_found");
      if (head.visibility !== "PUBLIC") throw new UnavailableError("not_public");
      const repoData = result.data.repository as Record<string, unknown>;
      totalCount = obj({ totalCount: num })(repoData.count, "count").totalCount;
      const page = connection(ItemHead)(repoData.changed, "changed");
      const fresh = page.nodes.filter((h) => h.updatedAt >= since).map(changedHead);
      changed.push(...fresh);
      // Pull requests cannot be filtered by `since`: stop at the first older one.
      if (!page.pageInfo.hasNextPage || fresh.length < page.nodes.length) break;
      after = page.pageInfo.endCursor;
    }
    return { totalCount, changed };
  }
}

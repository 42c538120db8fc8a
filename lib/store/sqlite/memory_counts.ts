/**
 * The embedded store's running count of what the shared memory holds —
 * Resources by kind and Comments — so `stats` and `doctor` cost the same at
 * 100,000 Resources as at 1,000. Triggers keep `memory_counts`, in the
 * statement that writes the row counted. A Comment replaced by another
 * with its id (`INSERT OR REPLACE`) fires the delete trigger only with
 * recursive triggers on, which every connection turns on (see connection.ts).
 *
 * @example
 * ```ts
 * import { readMemoryCounts } from "./memory_counts.ts";
 * readMemoryCounts((sql, params) => db.prepare(sql).all(params)).comments;
 * ```
 * @module
 */

import type { ResourceKind } from "../../types.ts";
import type { ReadRows } from "./tally.ts";

const ADD = (what: string, d: 1 | -1) => `
    INSERT INTO memory_counts (what, n) VALUES (${what}, ${d})
    ON CONFLICT (what) DO UPDATE SET n = n + ${d};`;

/** Migration 8: the counts, their triggers, and the counts of what is stored already. */
export const MEMORY_COUNTS_MIGRATION = `
  CREATE TABLE memory_counts (
    what TEXT PRIMARY KEY,
    n INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO memory_counts (what, n) SELECT kind, count(*) FROM resources GROUP BY kind;
  INSERT INTO memory_counts (what, n) SELECT 'comments', count(*) FROM comments;

  CREATE TRIGGER resources_count_insert AFTER INSERT ON resources BEGIN ${ADD("NEW.kind", 1)}
  END;
  CREATE TRIGGER resources_count_delete AFTER DELETE ON resources BEGIN ${ADD("OLD.kind", -1)}
  END;
  CREATE TRIGGER resources_count_update AFTER UPDATE OF kind ON resources
    WHEN OLD.kind IS NOT NEW.kind
  BEGIN ${ADD("OLD.kind", -1)} ${ADD("NEW.kind", 1)}
  END;
  CREATE TRIGGER comments_count_insert AFTER INSERT ON comments BEGIN ${ADD("'comments'", 1)}
  END;
  CREATE TRIGGER comments_count_delete AFTER DELETE ON comments BEGIN ${ADD("'comments'", -1)}
  END;
`;

/** Resources by kind and Comments, from the counts (a few rows). */
export function readMemoryCounts(
  read: ReadRows,
): { resources: Record<ResourceKind, number>; comments: number } {
  const resources: Record<ResourceKind, number> = { repository: 0, issue: 0, pull_request: 0 };
  let comments = 0;
  for (const r of read("SELECT what, n FROM memory_counts", {})) {
    if (r.what === "comments") comments = Number(r.n);
    else if (r.what === "repository" || r.what === "issue" || r.what === "pull_request") {
      resources[r.what] = Number(r.n);
    }
  }
  return { resources, comments };
}

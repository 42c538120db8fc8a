import assert from "node:assert/strict";
import { EMPTY_RECORD, nextRecord } from "./record.ts";
import { newSummary } from "./summary.ts";

const at = (s: string) => new Date(`2026-12-01T10:00:${s}.000Z`);

Deno.test("a Sweep GitHub never answered keeps the budget the last one saw; one it answered replaces it", () => {
  const seen = newSummary();
  seen.source = "graphql";
  seen.touches = 3;
  seen.resolved = 3;
  seen.requests = 1;
  seen.budget = { remaining: 4997, limit: 5000, reset_at: "2026-12-01T11:00:00Z" };
  const first = nextRecord(EMPTY_RECORD, {
    trigger: "auto",
    startedAt: at("00"),
    endedAt: at("01"),
    summary: seen,
  });
  assert.equal(first.budget?.remaining, 4997);

  // GitHub unreachable: the source opened, every request failed, no budget header came back.
  const unreachable = newSummary();
  unreachable.source = "graphql";
  unreachable.touches = 1;
  unreachable.pending = 1;
  unreachable.requests = 4;
  unreachable.errors = ["TransientError: connection refused"];
  const second = nextRecord(first, {
    trigger: "auto",
    startedAt: at("10"),
    endedAt: at("12"),
    summary: unreachable,
  });
  assert.deepEqual(second.budget, first.budget);
  assert.equal(second.last_error?.message, "TransientError: connection refused");

  const answered = { ...seen, budget: { ...seen.budget, remaining: 4990 } };
  const third = nextRecord(second, {
    trigger: "manual",
    startedAt: at("20"),
    endedAt: at("21"),
    summary: answered,
  });
  assert.equal(third.budget?.remaining, 4990);
  assert.equal(third.budget?.seen_at, at("21").toISOString());
});

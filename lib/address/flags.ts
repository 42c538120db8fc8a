/**
 * A getopt-style reader for command-line flags (the pflag rules `gh` follows,
 * which also fit curl and wget): `--name value`, `--name=value`, `-x value`,
 * `-xvalue`, clustered short booleans `-sSL`, `--` ending flags.
 *
 * @module
 */

/** Flag spellings → canonical name; `value` flags take an argument. */
export interface FlagSpec {
  value: Record<string, string>;
  bool: Record<string, string>;
  /** Accept (and skip as booleans) flags the spec does not know; otherwise they fail the parse. */
  lenient?: boolean;
  /**
   * Canonical names of value flags whose value may be opaque (unknown until
   * the shell expands it): those that cannot change what the command reads —
   * a header, an output file, an output filter. An opaque word anywhere else
   * fails the parse.
   */
  opaque?: readonly string[];
}

/** Flags seen (canonical name → every value, `""` for booleans) and positional words. */
export interface Parsed {
  flags: Map<string, string[]>;
  positional: string[];
}

/**
 * Reads `args` against `spec`; null when a flag is unknown (the program
 * would refuse the command), a value is missing, or a word in `opaque`
 * (indices into `args`: words of unknown value, holding their literal text
 * before the expansion) stands where its value could matter — a positional,
 * a flag name, or the value of a flag not in `spec.opaque`.
 *
 * @example
 * ```ts
 * parseFlags(["-L500", "--state=open", "x"], { value: { "-L": "limit", "--state": "state" }, bool: {} });
 * // { flags: Map { limit: ["500"], state: ["open"] }, positional: ["x"] }
 * ```
 */
export function parseFlags(
  args: readonly string[],
  spec: FlagSpec,
  opaque: ReadonlySet<number> = NONE,
): Parsed | null {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  const put = (name: string, v: string) => {
    const list = flags.get(name);
    if (list) list.push(v);
    else flags.set(name, [v]);
  };
  const mayBeOpaque = (name: string) => spec.opaque?.includes(spec.value[name]) ?? false;
  /** The value of `name` from word `k` on (its rest, or the next word); false when it may not be. */
  const take = (name: string, k: number, rest: string | null): number | false => {
    const at = rest === null ? k + 1 : k;
    if (at >= args.length || (opaque.has(at) && !mayBeOpaque(name))) return false;
    put(spec.value[name], rest ?? args[at]);
    return at;
  };
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    const unknown = opaque.has(k);
    if (a === "--" && !unknown) {
      if (args.slice(k + 1).some((_, i) => opaque.has(k + 1 + i))) return null;
      positional.push(...args.slice(k + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      // An opaque `--name…` is read only as `--name=<unknown>`: otherwise its name could change.
      if (unknown && eq < 0) return null;
      const name = eq < 0 ? a : a.slice(0, eq);
      if (Object.hasOwn(spec.value, name)) {
        const at = take(name, k, eq < 0 ? null : a.slice(eq + 1));
        if (at === false) return null;
        k = at;
      } else if (unknown) return null;
      else if (Object.hasOwn(spec.bool, name)) put(spec.bool[name], "");
      else if (!spec.lenient) return null;
    } else if (a.startsWith("-") && a.length > 1) {
      // A cluster of short flags; the first one taking a value takes the rest (or the next word).
      let valued = false;
      for (let c = 1; c < a.length; c++) {
        const name = "-" + a[c];
        if (Object.hasOwn(spec.value, name)) {
          const rest = a.slice(c + 1).replace(/^=/, "");
          const at = take(name, k, rest !== "" || unknown ? rest : null);
          if (at === false) return null;
          k = at;
          valued = true;
          break;
        } else if (Object.hasOwn(spec.bool, name)) put(spec.bool[name], "");
        else if (!spec.lenient) return null;
      }
      // Letters of unknown value after a cluster of booleans could be any flag.
      if (unknown && !valued) return null;
    } else if (unknown) return null;
    else positional.push(a);
  }
  return { flags, positional };
}

const NONE: ReadonlySet<number> = new Set();

/** The opaque indices of `cmd`'s words from `from` on, renumbered from 0. */
export function opaqueFrom(opaque: ReadonlySet<number> | undefined, from: number): Set<number> {
  return new Set([...opaque ?? []].filter((i) => i >= from).map((i) => i - from));
}

/** Flag spellings from a compact table: `"-R --repo": "repo"`. */
export function spellings(table: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [names, canonical] of Object.entries(table)) {
    for (const n of names.split(" ")) out[n] = canonical;
  }
  return out;
}

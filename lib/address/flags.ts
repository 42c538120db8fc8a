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
}

/** Flags seen (canonical name → every value, `""` for booleans) and positional words. */
export interface Parsed {
  flags: Map<string, string[]>;
  positional: string[];
}

/**
 * Reads `args` against `spec`; null when a flag is unknown (the program
 * would refuse the command) or a value is missing.
 *
 * @example
 * ```ts
 * parseFlags(["-L500", "--state=open", "x"], { value: { "-L": "limit", "--state": "state" }, bool: {} });
 * // { flags: Map { limit: ["500"], state: ["open"] }, positional: ["x"] }
 * ```
 */
export function parseFlags(args: readonly string[], spec: FlagSpec): Parsed | null {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  const put = (name: string, v: string) => {
    const list = flags.get(name);
    if (list) list.push(v);
    else flags.set(name, [v]);
  };
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === "--") {
      positional.push(...args.slice(k + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a : a.slice(0, eq);
      if (Object.hasOwn(spec.value, name)) {
        if (eq >= 0) put(spec.value[name], a.slice(eq + 1));
        else if (k + 1 < args.length) put(spec.value[name], args[++k]);
        else return null;
      } else if (Object.hasOwn(spec.bool, name)) put(spec.bool[name], "");
      else if (!spec.lenient) return null;
    } else if (a.startsWith("-") && a.length > 1) {
      // A cluster of short flags; the first one taking a value takes the rest (or the next word).
      for (let c = 1; c < a.length; c++) {
        const name = "-" + a[c];
        if (Object.hasOwn(spec.value, name)) {
          const rest = a.slice(c + 1).replace(/^=/, "");
          if (rest !== "") put(spec.value[name], rest);
          else if (k + 1 < args.length) put(spec.value[name], args[++k]);
          else return null;
          break;
        } else if (Object.hasOwn(spec.bool, name)) put(spec.bool[name], "");
        else if (!spec.lenient) return null;
      }
    } else positional.push(a);
  }
  return { flags, positional };
}

/** Flag spellings from a compact table: `"-R --repo": "repo"`. */
export function spellings(table: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [names, canonical] of Object.entries(table)) {
    for (const n of names.split(" ")) out[n] = canonical;
  }
  return out;
}

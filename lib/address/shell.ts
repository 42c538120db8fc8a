/**
 * A POSIX-ish shell reader: enough of the shell grammar to know which simple
 * commands a command line runs and with which words — quotes, escapes,
 * operators, redirections, here-documents, `cd`, `export`, `VAR=value`
 * prefixes and `bash -c "…"`. It never expands anything. A word that needs
 * expansion is one of two kinds:
 * - **opaque**: it stays one word whatever it expands to (`"$TOKEN"`,
 *   `"token $(gh auth token)"`, `~/out.json`). The command is kept, the word
 *   marked ({@link ShellCommand.opaque}); whoever reads the command decides
 *   whether a word of unknown value can change what it reads (a header value
 *   cannot, an address can).
 * - **unbounded**: it may become any number of words (`$n` and `$(…)`
 *   unquoted, `"$@"`) — or the command name itself needs expansion. The whole
 *   command is dropped, since guessing would record a read that did not happen.
 *
 * Commands inside `$(…)` and backticks do run, so they are read too.
 *
 * Linear scan, no regular expressions over the whole input.
 *
 * @example
 * ```ts
 * import { shellCommands } from "./shell.ts";
 * shellCommands(`cd /r && GH_REPO=o/r gh issue view 5 | head`, "/");
 * // [{ argv: ["cd", "/r"], … }, { argv: ["gh", "issue", "view", "5"], env: { GH_REPO: "o/r" }, cwd: "/r" }, { argv: ["head"], … }]
 * ```
 * @module
 */

import type { ShellCommand } from "./platform.ts";

/** Nesting limit for `bash -c` and command substitutions: deeper text is ignored. */
const MAX_DEPTH = 6;

/** What expanding a word can do: nothing, give one word of unknown value, or any number of words. */
type Expansion = "none" | "opaque" | "unbounded";

interface Word {
  t: "word";
  /** The word with quotes removed; only its literal parts when it needs expansion. */
  value: string;
  expansion: Expansion;
  /** The literal text before the first expansion (all of `value` when there is none). */
  prefix: string;
  /** True when the word had no quoting at all (reserved words, assignments). */
  plain: boolean;
}

/** The worse of two expansions. */
function worse(a: Expansion, b: Expansion): Expansion {
  return a === "unbounded" || b === "unbounded" ? "unbounded" : a === "opaque" ? a : b;
}
interface Op {
  t: "op";
  op: string;
}
type Token = Word | Op;

/** What the scanner hands back: tokens, and the texts of command substitutions. */
interface Scan {
  tokens: Token[];
  substitutions: string[];
}

const SPACE = new Set([" ", "\t", "\r"]);
const META = new Set([" ", "\t", "\r", "\n", "|", "&", ";", "(", ")", "<", ">"]);
const REDIRECTS = new Set([
  "<<-",
  "<<<",
  "<<",
  ">>",
  ">&",
  "<&",
  "&>>",
  "&>",
  ">|",
  "<>",
  "<",
  ">",
]);
const SEPARATORS = new Set(["&&", "||", ";;", "|&", ";", "|", "&", "\n"]);
/** Every operator, longest first so `&&` wins over `&` and `<<-` over `<<`. */
const OPERATORS = [...REDIRECTS, ...SEPARATORS, "(", ")"].sort((a, b) => b.length - a.length);
/** Words that may precede a command in command position without being it. */
const PREFIX_WORDS = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "while",
  "until",
  "do",
  "done",
  "time",
  "command",
  "builtin",
  "exec",
  "nohup",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Index just past the `)` closing a `$(` / `(` opened before `i`, skipping quotes; `s.length` when unbalanced. */
function closeParen(s: string, i: number): number {
  let depth = 1;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") i += 2;
    else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      i = end < 0 ? s.length : end + 1;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
      i++;
    } else {
      if (c === "(") depth++;
      else if (c === ")" && --depth === 0) return i + 1;
      i++;
    }
  }
  return s.length;
}

/** Index just past the backtick closing one opened before `i`. */
function closeBacktick(s: string, i: number): number {
  while (i < s.length && s[i] !== "`") i += s[i] === "\\" ? 2 : 1;
  return Math.min(i + 1, s.length);
}

const ANSI_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
};

class Scanner {
  i = 0;
  tokens: Token[] = [];
  substitutions: string[] = [];
  /** Here-document delimiters waiting for the next newline: [delimiter, strip leading tabs]. */
  heredocs: [string, boolean][] = [];
  constructor(readonly s: string) {}

  run(): Scan {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i];
      if (SPACE.has(c)) this.i++;
      else if (c === "\\" && s[this.i + 1] === "\n") this.i += 2;
      else if (c === "\n") {
        this.i++;
        this.tokens.push({ t: "op", op: "\n" });
        this.skipHeredocBodies();
      } else if (c === "#") {
        const end = s.indexOf("\n", this.i);
        this.i = end < 0 ? s.length : end;
      } else if ((c === "<" || c === ">") && s[this.i + 1] === "(") {
        // Process substitution: its command runs; the word is one path of unknown name.
        const end = closeParen(s, this.i + 2);
        this.substitutions.push(s.slice(this.i + 2, end - 1));
        this.i = end;
        this.tokens.push({ t: "word", value: "", expansion: "opaque", prefix: "", plain: false });
      } else if (META.has(c)) this.operator();
      else this.word();
    }
    return { tokens: this.tokens, substitutions: this.substitutions };
  }

  operator(): void {
    const s = this.s;
    for (const op of OPERATORS) {
      if (s.startsWith(op, this.i)) {
        this.i += op.length;
        this.tokens.push({ t: "op", op });
        if (op === "<<" || op === "<<-") this.heredocDelimiter(op === "<<-");
        return;
      }
    }
    this.i++;
  }

  /** Reads the delimiter word after `<<` and queues its body for skipping. */
  heredocDelimiter(stripTabs: boolean): void {
    while (SPACE.has(this.s[this.i])) this.i++;
    const before = this.tokens.length;
    this.word();
    const [w] = this.tokens.splice(before);
    // Quoted or not, the delimiter is the word with quotes removed.
    if (w?.t === "word") this.heredocs.push([w.value, stripTabs]);
  }

  skipHeredocBodies(): void {
    const s = this.s;
    for (const [delim, stripTabs] of this.heredocs) {
      while (this.i < s.length) {
        let end = s.indexOf("\n", this.i);
        if (end < 0) end = s.length;
        let line = s.slice(this.i, end);
        if (stripTabs) line = line.replace(/^\t+/, "");
        this.i = Math.min(end + 1, s.length);
        if (line === delim) break;
      }
    }
    this.heredocs = [];
  }

  /** Reads one word starting at `this.i`. */
  word(): void {
    const s = this.s;
    let value = "";
    let expansion: Expansion = "none";
    let prefix: string | null = null;
    let plain = true;
    const start = this.i;
    const expand = (kind: Expansion) => {
      prefix ??= value;
      expansion = worse(expansion, kind);
    };
    while (this.i < s.length) {
      const c = s[this.i];
      if (META.has(c)) {
        // Digits directly before a redirection are a file descriptor, not a word.
        if ((c === "<" || c === ">") && plain && /^\d+$/.test(value)) return;
        break;
      }
      if (c === "'") {
        plain = false;
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) {
          expand("unbounded");
          this.i = s.length;
          break;
        }
        value += s.slice(this.i + 1, end);
        this.i = end + 1;
      } else if (c === '"') {
        plain = false;
        this.i++;
        let closed = false;
        while (this.i < s.length) {
          const d = s[this.i];
          if (d === '"') {
            closed = true;
            this.i++;
            break;
          }
          if (d === "\\") {
            const e = s[this.i + 1];
            if (e === "$" || e === "`" || e === '"' || e === "\\") value += e;
            else if (e !== "\n") value += "\\" + (e ?? "");
            this.i += 2;
          } else if (d === "$" || d === "`") {
            // Quoted, an expansion stays one word — except "$@" and its kin, which make many.
            const kind = this.expansion();
            if (kind === null) value += d, this.i++;
            else expand(kind === "many" ? "unbounded" : "opaque");
          } else {
            value += d;
            this.i++;
          }
        }
        if (!closed) expand("unbounded");
      } else if (c === "\\") {
        plain = false;
        const e = s[this.i + 1];
        if (e !== undefined && e !== "\n") value += e;
        this.i += 2;
      } else if (c === "$" && s[this.i + 1] === "'") {
        plain = false;
        value += this.ansiC();
      } else if (c === "$" || c === "`") {
        // Unquoted, the result is split into words and globbed: any number of them.
        if (this.expansion() !== null) expand("unbounded"), plain = false;
        else value += c, this.i++;
      } else if (c === "~" && this.i === start) {
        // Tilde expansion depends on the environment, and gives one word.
        expand("opaque");
        this.i++;
      } else {
        value += c;
        this.i++;
      }
    }
    this.tokens.push({ t: "word", value, expansion, prefix: prefix ?? value, plain });
  }

  /**
   * Consumes an expansion starting at `$` or a backtick; records command
   * substitutions. Returns null when the `$` is a literal dollar sign,
   * `"many"` for one that makes several words even when quoted (`$@`,
   * `${a[@]}`, `${!prefix@}`), else `"one"`.
   */
  expansion(): "one" | "many" | null {
    const s = this.s;
    const c = s[this.i];
    if (c === "`") {
      const end = closeBacktick(s, this.i + 1);
      this.substitutions.push(s.slice(this.i + 1, end - 1));
      this.i = end;
      return "one";
    }
    const n = s[this.i + 1];
    if (n === "(") {
      const arithmetic = s[this.i + 2] === "(";
      const end = closeParen(s, this.i + 2);
      if (!arithmetic) this.substitutions.push(s.slice(this.i + 2, end - 1));
      this.i = end;
      return "one";
    }
    if (n === "{") {
      const end = s.indexOf("}", this.i + 2);
      const inner = s.slice(this.i + 2, end < 0 ? s.length : end);
      this.i = end < 0 ? s.length : end + 1;
      return inner.includes("@") || inner.startsWith("!") ? "many" : "one";
    }
    if (n !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(n)) {
      this.i += 2;
      if (/[A-Za-z_]/.test(n)) {
        while (this.i < s.length && /[A-Za-z0-9_]/.test(s[this.i])) this.i++;
      }
      return n === "@" ? "many" : "one";
    }
    return null;
  }

  /** Reads `$'…'` (ANSI-C quoting) starting at `$`. */
  ansiC(): string {
    const s = this.s;
    let out = "";
    this.i += 2;
    while (this.i < s.length && s[this.i] !== "'") {
      if (s[this.i] === "\\" && this.i + 1 < s.length) {
        const e = s[this.i + 1];
        out += ANSI_ESCAPES[e] ?? "\\" + e;
        this.i += 2;
      } else out += s[this.i++];
    }
    this.i++;
    return out;
  }
}

/**
 * The program a command word runs: its last path segment (`/` or a Windows
 * `\\`), with a Windows `.exe` suffix dropped (any case, as Windows matches it).
 *
 * @example
 * ```ts
 * commandName("/opt/homebrew/bin/gh"); // "gh"
 * commandName("C:\\Program Files\\GitHub CLI\\GH.EXE"); // "gh"
 * ```
 */
export function commandName(word: string): string {
  const base = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1);
  return /\.exe$/i.test(base) ? base.slice(0, -4).toLowerCase() : base;
}

/** Joins a `cd` target onto the current directory (POSIX paths, `.` and `..` resolved). */
function resolveDir(cwd: string | null, target: string): string | null {
  const base = target.startsWith("/") ? "" : cwd;
  if (base === null) return null;
  const parts: string[] = [];
  for (const p of `${base}/${target}`.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return "/" + parts.join("/");
}

/** The script of `bash -c SCRIPT …` (any option cluster containing `c`), or null. */
function shellScript(argv: string[]): string | null {
  let sawC = false;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (
      a === "-o" || a === "+o" || a === "-O" || a === "+O" || a === "--rcfile" ||
      a === "--init-file"
    ) {
      k++;
    } else if (a.startsWith("--")) continue;
    else if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a[0] === "-" && a.includes("c")) sawC = true;
    } else return sawC ? a : null;
  }
  return null;
}

interface Shell {
  cwd: string | null;
  env: Record<string, string | null>;
}

/**
 * The simple commands a shell command line runs, in order, each with its
 * words (those of unknown value marked opaque), its environment and
 * working directory.
 */
export function shellCommands(
  script: string,
  cwd: string | null,
  env: Record<string, string | null> = {},
  depth = 0,
): ShellCommand[] {
  const out: ShellCommand[] = [];
  if (depth > MAX_DEPTH) return out;
  const { tokens, substitutions } = new Scanner(script).run();
  let shell: Shell = { cwd, env: { ...env } };
  for (const sub of substitutions) out.push(...shellCommands(sub, shell.cwd, shell.env, depth + 1));
  const scopes: Shell[] = [];
  let words: Word[] = [];
  let assigned: Record<string, string | null> = {};
  let redirectTarget = false;

  const finish = () => {
    const cmd = words;
    const vars = assigned;
    words = [];
    assigned = {};
    redirectTarget = false;
    if (cmd.length === 0) return;
    run(cmd, vars);
  };

  const run = (cmd: Word[], vars: Record<string, string | null>) => {
    const known = (w: Word | undefined) => w?.expansion === "none";
    // Wrappers that run the rest of the line as the command.
    let k = 0;
    for (;;) {
      const w = cmd[k];
      if (!known(w)) break;
      const word = w.value.slice(w.value.lastIndexOf("/") + 1);
      if (word === "env") {
        k++;
        while (known(cmd[k]) && cmd[k].value.startsWith("-")) k++;
        while (cmd[k] && isAssignment(cmd[k])) assign(vars, cmd[k++]);
      } else if (word === "timeout") {
        k++;
        while (known(cmd[k]) && cmd[k].value.startsWith("-")) {
          k += cmd[k].value === "-s" || cmd[k].value === "-k" ? 2 : 1;
        }
        k++; // the duration
      } else if (PREFIX_WORDS.has(w.value) && w.plain) k++;
      else break;
    }
    const rest = cmd.slice(k);
    const first = known(rest[0]) ? rest[0].value : "";
    if (first === "export") {
      for (const a of rest.slice(1)) if (isAssignment(a)) assign(shell.env, a);
    }
    const opaque = new Set(rest.flatMap((w, i) => w.expansion === "opaque" ? [i] : []));
    if (
      rest.length === 0 || !known(rest[0]) || rest.some((w) => w.expansion === "unbounded") ||
      (opaque.size > 0 && (first === "cd" || first === "pushd"))
    ) {
      // An unknown `cd` target leaves the directory unknown.
      if (first === "cd" || first === "pushd") shell.cwd = null;
      return;
    }
    const argv = rest.map((w) => w.expansion === "none" ? w.value : w.prefix);
    const name = commandName(argv[0]);
    const envHere = { ...shell.env, ...vars };
    if (name === "cd" || name === "pushd") {
      const args = argv.slice(1).filter((a) => a !== "-P" && a !== "-L" && a !== "--");
      shell.cwd = args.length === 0 || args[0] === "-" ? null : resolveDir(shell.cwd, args[0]);
    } else if (name === "unset") {
      for (const a of argv.slice(1)) delete shell.env[a];
    } else if (SHELLS.has(name) && opaque.size === 0) {
      const inner = shellScript(argv);
      if (inner !== null) out.push(...shellCommands(inner, shell.cwd, envHere, depth + 1));
    }
    out.push(
      opaque.size === 0
        ? { argv, env: envHere, cwd: shell.cwd }
        : { argv, env: envHere, cwd: shell.cwd, opaque },
    );
  };

  for (const tok of tokens) {
    if (tok.t === "word") {
      if (redirectTarget) redirectTarget = false;
      else if (words.length === 0 && isAssignment(tok)) assign(assigned, tok);
      else words.push(tok);
    } else if (REDIRECTS.has(tok.op)) {
      redirectTarget = tok.op !== "<<" && tok.op !== "<<-"; // the scanner consumed the delimiter
    } else if (tok.op === "(") {
      finish();
      scopes.push(shell);
      shell = { cwd: shell.cwd, env: { ...shell.env } };
    } else if (tok.op === ")") {
      finish();
      shell = scopes.pop() ?? shell;
    } else if (SEPARATORS.has(tok.op)) finish();
  }
  finish();
  return out;
}

/** `NAME=…`, the name literal (an assignment's value may need expansion; it is never split). */
function isAssignment(w: Word): boolean {
  const eq = w.prefix.indexOf("=");
  return eq > 0 && NAME.test(w.prefix.slice(0, eq));
}

function assign(into: Record<string, string | null>, w: Word): void {
  const eq = w.prefix.indexOf("=");
  into[w.prefix.slice(0, eq)] = w.expansion === "none" ? w.value.slice(eq + 1) : null;
}

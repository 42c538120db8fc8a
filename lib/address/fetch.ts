/**
 * The URLs a `curl` or `wget` command reads with GET. Any request that sends
 * data or another method is a write (or at least not a read) and yields nothing.
 *
 * @module
 */

import { type FlagSpec, opaqueFrom, parseFlags, spellings } from "./flags.ts";
import { commandName } from "./shell.ts";

/**
 * Values that cannot change which URL is read or how (`-H "Authorization:
 * token $T"`, `-o "$F"`, credentials, timeouts): they may need expansion.
 * Every other flag's value, and the URL, must be literal.
 */
const SAFE = "safe";

const CURL: FlagSpec = {
  value: spellings({
    "-X --request": "method",
    "-d --data --data-raw --data-binary --data-ascii --data-urlencode --json -F --form --form-string -T --upload-file":
      "data",
    "--url": "url",
    "-H --header -o --output --output-dir -D --dump-header -u --user -U --proxy-user --oauth2-bearer -A --user-agent -e --referer -w --write-out -m --max-time --connect-timeout --retry --retry-delay --retry-max-time -b --cookie -c --cookie-jar -E --cert --cacert --capath --key --limit-rate --max-filesize":
      SAFE,
    "-x --proxy -K --config -r --range -y -Y -z -C -P -Q --quote -t --telnet-option --resolve --variable --expand-header --expand-url --proto --proto-redir":
      "other",
  }),
  bool: spellings({ "-G --get": "get", "-I --head": "head" }),
  lenient: true,
  opaque: [SAFE],
};

const WGET: FlagSpec = {
  value: spellings({
    "--method": "method",
    "--post-data --post-file --body-data --body-file": "data",
    "--header -O --output-document -o --output-file -a --append-output -P --directory-prefix -U --user-agent -t --tries -T --timeout -w --wait --user --password --load-cookies --save-cookies":
      SAFE,
    "-e --execute -i --input-file -B --base -Q --quota -l --level -A --accept -R --reject -D --domains -I --include-directories -X --exclude-directories":
      "other",
  }),
  bool: spellings({ "--spider": "head" }),
  lenient: true,
  opaque: [SAFE],
};

/**
 * URLs that `argv` (a `curl` or `wget` command) GETs; `[]` for any other
 * command, any non-GET request, and any word of unknown value (`opaque`:
 * indices into `argv`) where a value could matter.
 *
 * @example
 * ```ts
 * fetchedUrls(["curl", "-sL", "-H", "Accept: application/json", "https://api.github.com/repos/o/r"]);
 * // ["https://api.github.com/repos/o/r"]
 * ```
 */
export function fetchedUrls(argv: readonly string[], opaque?: ReadonlySet<number>): string[] {
  const name = argv[0] === undefined ? undefined : commandName(argv[0]);
  if (name !== "curl" && name !== "wget") return [];
  const p = parseFlags(argv.slice(1), name === "curl" ? CURL : WGET, opaqueFrom(opaque, 1));
  if (!p || p.flags.has("head")) return [];
  const method = p.flags.get("method")?.at(-1)?.toUpperCase();
  // curl -G turns data into the query string; otherwise data means POST.
  const sendsBody = p.flags.has("data") && !p.flags.has("get");
  if ((method !== undefined && method !== "GET") || (method === undefined && sendsBody)) return [];
  const data = p.flags.get("data") ?? [];
  // Data read from a file (`-d @f`) builds a query we cannot know.
  if (data.some((d) => d.startsWith("@"))) return [];
  const urls = [...(p.flags.get("url") ?? []), ...p.positional]
    .map((u) => /^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `https://${u}`)
    .filter((u) => /^https?:\/\//i.test(u));
  if (data.length === 0) return urls;
  return urls.map((u) => u + (u.includes("?") ? "&" : "?") + data.join("&"));
}

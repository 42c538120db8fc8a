/**
 * The URLs a `curl` or `wget` command reads with GET. Any request that sends
 * data or another method is a write (or at least not a read) and yields nothing.
 *
 * @module
 */

import { type FlagSpec, parseFlags, spellings } from "./flags.ts";
import { commandName } from "./shell.ts";

const CURL: FlagSpec = {
  value: spellings({
    "-X --request": "method",
    "-d --data --data-raw --data-binary --data-ascii --data-urlencode --json -F --form --form-string -T --upload-file":
      "data",
    "--url": "url",
    "-H --header -o --output -u --user -A --user-agent -e --referer -w --write-out -m --max-time -x --proxy -b --cookie -c --cookie-jar -E --cert -K --config -r --range -y -Y -z -C -P -Q --quote -t --telnet-option -D --dump-header -U --proxy-user --connect-timeout --retry --retry-delay --retry-max-time --cacert --capath --key --limit-rate --max-filesize --resolve --output-dir --oauth2-bearer --variable --expand-header --expand-url --proto --proto-redir":
      "other",
  }),
  bool: spellings({ "-G --get": "get", "-I --head": "head" }),
  lenient: true,
};

const WGET: FlagSpec = {
  value: spellings({
    "--method": "method",
    "--post-data --post-file --body-data --body-file": "data",
    "-O --output-document -o --output-file -a --append-output -e --execute -t --tries -T --timeout -w --wait -P --directory-prefix -U --user-agent -i --input-file -B --base -Q --quota -l --level -A --accept -R --reject -D --domains -I --include-directories -X --exclude-directories --header --user --password --load-cookies --save-cookies":
      "other",
  }),
  bool: spellings({ "--spider": "head" }),
  lenient: true,
};

/**
 * URLs that `argv` (a `curl` or `wget` command) GETs; `[]` for any other
 * command or any non-GET request.
 *
 * @example
 * ```ts
 * fetchedUrls(["curl", "-sL", "-H", "Accept: application/json", "https://api.github.com/repos/o/r"]);
 * // ["https://api.github.com/repos/o/r"]
 * ```
 */
export function fetchedUrls(argv: readonly string[]): string[] {
  const name = argv[0] === undefined ? undefined : commandName(argv[0]);
  if (name !== "curl" && name !== "wget") return [];
  const p = parseFlags(argv.slice(1), name === "curl" ? CURL : WGET);
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

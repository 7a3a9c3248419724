/**
 * Names in the generated program: Pulumi resource names from natural keys (`corporate-vpn`,
 * `corporate-vpn-frankfurt`), and TypeScript variable names from them (`corporateVpnFrankfurt`),
 * each unique, and the same for the same installation whatever order things are met in (callers
 * hand them out in the sorted order the inventory keeps).
 */

/** `Corporate VPN (EU)` -> `corporate-vpn-eu`; `""` for a key with no letter or digit. */
export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** `corporate-vpn-frankfurt` -> `corporateVpnFrankfurt`. */
export function camel(slugText: string): string {
  return slugText.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Words TypeScript or the generated program's own names take. */
const TAKEN = new Set([
  ...(
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements " +
    "interface package private protected public await async of any"
  ).split(" "),
  "config",
  "imported",
  "pulumi",
  "kasm",
  "users",
  "userId",
  "groupId",
  "path",
  "readFileSync",
  // Go's keywords and the names its program takes; Python's keywords.
  ..."chan defer fallthrough func go goto map range select struct type ctx conf err main".split(" "),
  ..."and as assert def del elif except from global is lambda nonlocal not or pass raise None True False opts".split(" "),
]);

/** Hands out unique resource names and variable names. */
export class Names {
  readonly #resources = new Set<string>();
  readonly #variables = new Set<string>(TAKEN);

  /** Keep `resources` and `variables` for the program's own declarations (the providers of a native program). */
  reserve(resources: readonly string[], variables: readonly string[]): void {
    for (const name of resources) this.#resources.add(name);
    for (const name of variables) this.#variables.add(name);
  }

  /** A resource name unique in the program: the slug of `key` (or `fallback`), `-2`, `-3` ... on a clash. */
  resource(key: string, fallback: string): string {
    const base = slug(key) || fallback;
    let name = base;
    for (let n = 2; this.#resources.has(name); n++) name = `${base}-${n}`;
    this.#resources.add(name);
    return name;
  }

  /** A variable name unique in the program, from a resource name; `prefix` when it would not start with a letter. */
  variable(resourceName: string, prefix: string): string {
    let base = camel(resourceName);
    if (!/^[a-z]/.test(base)) base = `${prefix}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
    let name = base;
    for (let n = 2; this.#variables.has(name); n++) name = `${base}${n}`;
    this.#variables.add(name);
    return name;
  }
}

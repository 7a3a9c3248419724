/**
 * The program writer's core: the settings a generation takes, the {@link ProgramWriter} that the
 * areas (`area.ts`, and the areas of `users-and-groups.ts`, `workspaces.ts`, `servers.ts`, `staging-and-casting.ts`,
 * `egress.ts`) fill section by section, and how a value becomes TypeScript source (literals, ids
 * with their names, `new kasm.Kind(...)`).
 * Apart from the areas so that each area reads as what it declares, and the rules of writing
 * source stay in one place: the same installation gives the same bytes. Every object declared with
 * a variable is linked, by kind and canonical id, to `<variable>.<id output>` (the permission catalogue's
 * `KIND_ID_OUTPUTS`): one map through which later sections refer to it ({@link ProgramWriter.link}).
 */
import { canonicalId } from "../../permissions/planned-calls";
import { idOutputOf, kasmTypeToken, type KasmKind } from "../../permissions/kinds";
import { IMPORT_KINDS, type ImportKind } from "../kinds";
import { Names, slug } from "../names";
import { imageFriendlyNames, type Inventory, type Skipped } from "../read";
import { Code, isDeclaration, RawId, Ref, Secret, type Declaration, type Item, type ModelSection, type Value } from "./model";

export { Code, RawId, Ref, Secret, type Declaration, type Item, type ModelSection, type Value } from "./model";

// --- types ---------------------------------------------------------------------------------------

/** How the program is written. */
export interface ProgramSettings {
  /** The areas to declare. */
  readonly kinds: ReadonlySet<ImportKind>;
  /** `set`: one UserSet from users.csv (default). `each`: one User and one UserGroups per user, from users.json. */
  readonly users: "set" | "each";
  /** The Pulumi project name. */
  readonly project: string;
  /** The installation's address, for the README's settings. */
  readonly baseUrl: string;
  /** The API key's identifier (not its secret), for the README's settings. */
  readonly apiKey: string;
  /** Mark every resource `protect: true`, as `pulumi import` does. */
  readonly protect: boolean;
  /** The version of pulumi-kasm that generated the project (the project depends on `^` it). */
  readonly packageVersion: string;
  /** The @pulumi/pulumi versions that pulumi-kasm accepts (its peer dependency), which the project depends on. */
  readonly pulumiRange: string;
  /**
   * `dynamic` (default): pulumi-kasm's dynamic resources, users from data files read in loops.
   * `native`: the native provider's resources, each declared one by one (every language has them).
   */
  readonly form?: "dynamic" | "native";
  /** The installation's prefix in a fleet (`prod`): every resource name and variable starts with it. */
  readonly prefix?: string;
}

/** A secret the program reads from the stack configuration, for the README's `pulumi config set --secret` lines. */
export interface SecretSetting {
  /** The configuration key, without the project prefix. */
  readonly key: string;
  /** What value to give it. */
  readonly what: string;
}

/** One line of the summary: an area, what was found, what was declared, and why the rest was not. */
export interface SummaryRow {
  /** The area's title, such as `Staging configs`. */
  readonly kind: string;
  /** Undefined when the area was not read. */
  readonly found?: number;
  /** How many of them the program declares. */
  readonly declared: number;
  /** Why the rest were not declared, one reason a line. */
  readonly skipped: readonly string[];
}

/**
 * One object of the resource list that `pulumi import --file` takes: the native type token, the
 * resource's name (the program's), and the id the kind's provider gives the object.
 */
export interface PulumiImportEntry {
  readonly type: string;
  readonly name: string;
  readonly id: string;
}

// --- writing TypeScript --------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A comment's text, safe inside `/* ... *\/` and on one line. */
function commentText(text: string): string {
  return text.replace(/\*\//g, "* /").replace(/[\r\n]+/g, " ");
}

/** A value as TypeScript source, on one line (a native program's too: only {@link Code} is the dynamic form's own). */
export function literal(value: Value): string {
  if (value === null) return "null";
  if (value instanceof Code) return value.text;
  if (value instanceof Ref) return `${value.variable}.${value.output}`;
  if (value instanceof RawId) return value.label ? `${JSON.stringify(value.id)} /* ${commentText(value.label)} */` : JSON.stringify(value.id);
  if (value instanceof Secret) return `config.requireSecret(${JSON.stringify(value.key)})`;
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined) as [string, Value][];
    if (entries.length === 0) return "{}";
    return `{ ${entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${literal(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** An id with the name of what it is beside it, when the object is not declared in the program. */
export function rawId(id: string, name: string | undefined): RawId {
  return new RawId(id, name);
}

/** `new kasm.Kind("name", { ... }, options);` with one argument per line. */
export function declaration(variable: string | undefined, kind: string, name: string, args: Record<string, Value | undefined>, options: string): string {
  const lines = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${k}: ${literal(v as Value)},`);
  const head = variable ? `const ${variable} = ` : "";
  return `${head}new kasm.${kind}(${JSON.stringify(name)}, {\n${lines.join("\n")}\n}, ${options});`;
}

/** The values of a record that are set (not null, not undefined). */
export function setValues<T extends Record<string, unknown>>(values: T): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)) as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;
}

/** A stable JSON text: keys in the order given, two-space indent, newline at the end. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The tsconfig.json of a generated TypeScript program, in either form: what `pulumi up` (ts-node)
 * and `tsc` both read, with TypeScript 5 or 6. Pulumi's template with the module resolution
 * TypeScript 6 still takes (it refuses `node`, that is node10, with TS5107; Pulumi's runtime fills
 * in `nodenext` when none is given, which `commonjs` cannot go with). TypeScript 6 reads Node's
 * types only when `types` names them.
 */
export function typescriptConfig(): string {
  return json({
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2022",
      module: "node16",
      moduleResolution: "node16",
      types: ["node"],
      sourceMap: true,
      skipLibCheck: true,
      forceConsistentCasingInFileNames: true,
    },
    files: ["index.ts"],
  });
}

/**
 * The sections of a generated project's README that every form shares: what it declares, what was
 * not taken over and why, and how to go on (`edited` names the files to edit).
 */
export function summarySections(rows: readonly SummaryRow[], edited: string, protect: boolean): string[] {
  const skipped = rows.flatMap((row) => row.skipped.map((reason) => `- ${row.kind}: ${reason}`));
  return [
    "## What is in it",
    "",
    "| area | found | declared |",
    "| --- | --- | --- |",
    ...rows.map((row) => `| ${row.kind} | ${row.found ?? "not read"} | ${row.declared} |`),
    "",
    "## What was not taken over, and why",
    "",
    ...(skipped.length > 0 ? skipped : ["Nothing."]),
    "",
    "## After the first run",
    "",
    `Edit ${edited}, then \`pulumi preview\` and \`pulumi up\`: Pulumi changes exactly what you changed.`,
    ...(protect
      ? [
          "Resources are protected (`protect: true`), as `pulumi import` leaves them: a declaration removed by",
          "mistake, or `pulumi destroy`, fails instead of deleting from Kasm. To delete one on purpose, run",
          "`pulumi state unprotect <urn>` first, then remove its declaration.",
        ]
      : ["Resources are not protected: removing a declaration deletes the object from Kasm on the next `up`."]),
    "",
  ];
}

// --- the program ---------------------------------------------------------------------------------

/** The options argument of a dynamic TypeScript declaration: `imported`, with `dependsOn` when given. */
export function optionsText(dependsOn: readonly string[] = []): string {
  if (dependsOn.length === 0) return "imported";
  return `{ ...imported, dependsOn: [${dependsOn.join(", ")}] }`;
}

/** A section as dynamic TypeScript: the rule with its title, the comment, then the items. */
export function sectionText(section: ModelSection): string {
  const rule = `// --- ${section.title} `.padEnd(100, "-");
  const comment = section.comment
    .split("\n")
    .map((line) => `// ${line}`.trimEnd())
    .join("\n");
  const body = section.items
    .map((item) => (isDeclaration(item) ? declaration(item.variable, item.kind, item.name, item.args, optionsText(item.dependsOn)) : item.text))
    .join("\n");
  return `${rule}\n${comment}\n${body}\n`;
}

/** Builds the program section by section; one instance per installation and generation. */
export class ProgramWriter {
  /** The program's sections, in no language (see model.ts). */
  readonly model: ModelSection[] = [];
  readonly files = new Map<string, string>();
  readonly secrets: SecretSetting[] = [];
  readonly summary: SummaryRow[] = [];
  /** Every declared object, as `pulumi import --file` takes it (see {@link ProgramWriter.declare}). */
  readonly pulumiImports: PulumiImportEntry[] = [];
  readonly skippedReasons: Skipped[];
  /**
   * The program's reference to each object declared with a variable (`engineering.groupId`), by
   * kind and canonical id: what the other sections write instead of the id (see {@link ProgramWriter.link}).
   */
  readonly #links = new Map<string, Ref>();
  /** The resource name of every declared object, without the prefix, by kind and canonical id (see {@link ProgramWriter.nameOf}). */
  readonly #names = new Map<string, string>();
  /** The variables of the objects declared with one, by kind, in the order declared. */
  readonly #variables = new Map<KasmKind, string[]>();
  /** Canonical user id -> username, for every user read. */
  readonly usernames = new Map<string, string>();
  /** Canonical group id -> name, from user records and the group list. */
  readonly groupNames = new Map<string, string>();
  /** Canonical image id -> friendly name, from the image list. */
  readonly imageNames: ReadonlyMap<string, string>;
  /** Whether the users are declared, so that `userId(username)` refers to them. */
  usersDeclared = false;
  /** Whether the program reads a data file beside it (it then imports `fs` and `path`). */
  usesReadFile = false;

  /**
   * @param names The names handed out so far: one for the whole program, so that the
   *   installations of a fleet never give two resources or variables the same name.
   */
  constructor(
    readonly inventory: Inventory,
    readonly settings: ProgramSettings,
    readonly names: Names = new Names(),
  ) {
    this.skippedReasons = [...inventory.skipped];
    for (const user of inventory.users ?? []) {
      this.usernames.set(canonical(user.user_id), user.username);
      for (const group of user.groups ?? []) this.groupNames.set(canonical(group.group_id), group.name);
    }
    for (const group of inventory.groups ?? []) this.groupNames.set(canonical(group.group_id), group.name);
    this.imageNames = imageFriendlyNames(inventory.images ?? []);
  }

  /** Whether the program is written on the native provider (each object one declaration, in any language). */
  get native(): boolean {
    return this.settings.form === "native";
  }

  /** The sections as dynamic TypeScript (what `index.ts` holds). */
  get sections(): string[] {
    return this.model.map(sectionText);
  }

  /**
   * A resource name unique in the program, from a natural key (or `fallback`), after the
   * installation's prefix in a fleet (`prod-engineering`).
   */
  resourceName(key: string, fallback: string): string {
    const base = slug(key) || fallback;
    return this.names.resource(this.prefixed(base), this.prefixed(fallback));
  }

  /** `name` after the installation's prefix, when it has one (`prod-ada@corp.example`). */
  prefixed(name: string): string {
    return this.settings.prefix === undefined ? name : `${this.settings.prefix}-${name}`;
  }

  /** Whether the area is to be declared. */
  wants(kind: ImportKind): boolean {
    return this.settings.kinds.has(kind);
  }

  /**
   * The records of an area to declare: undefined when the area is not wanted, or when it was not
   * read (a refused View permission), which the summary then shows as "not read".
   */
  wanted<T>(kind: ImportKind, records: T | undefined): T | undefined {
    if (!this.wants(kind)) return undefined;
    if (records === undefined) this.row(kind, undefined, 0);
    return records;
  }

  /** The options argument of dynamic TypeScript code written as it is, with `dependsOn` when given. */
  options(dependsOn: readonly string[] = []): string {
    return optionsText(dependsOn);
  }

  /**
   * A declaration of `kind`, and the object in the resource list for `pulumi import --file`: `id`
   * is the id the kind's provider gives it.
   */
  declare(
    variable: string | undefined,
    kind: KasmKind,
    name: string,
    id: string,
    args: Record<string, Value | undefined>,
    dependsOn: readonly string[] = [],
  ): Declaration {
    // Declared with a variable, the object is referred to through it: its kind's id output.
    const output = idOutputOf(kind);
    if (variable !== undefined && output !== undefined) this.#links.set(linkKey(kind, id), new Ref(variable, output, name, kind));
    if (variable !== undefined) this.#variables.set(kind, [...(this.#variables.get(kind) ?? []), variable]);
    const prefix = this.settings.prefix === undefined ? "" : `${this.settings.prefix}-`;
    this.#names.set(linkKey(kind, id), name.startsWith(prefix) ? name.slice(prefix.length) : name);
    this.importable(kind, name, id);
    return { variable, kind, name, args, dependsOn };
  }

  /** An object the program declares in a loop over a data file: only its entry for `pulumi import --file`. */
  importable(kind: KasmKind, name: string, id: string): void {
    this.pulumiImports.push({ type: kasmTypeToken(kind, "native"), name, id });
  }

  /**
   * A section of the program: a rule with its title, the comment, then the items (declarations,
   * or dynamic TypeScript written as it is, given as one text that ends with a newline).
   */
  section(title: string, comment: string, body: string | readonly Item[]): void {
    const items = typeof body === "string" ? [new Code(body.replace(/\n$/, ""))] : body;
    this.model.push({ title, comment, items });
  }

  /** A secret input read from the stack configuration; the README says what to set. */
  secret(key: string, what: string): Secret {
    this.secrets.push({ key, what });
    return new Secret(key);
  }

  /** The summary's line of an area, with the reasons the reader gave for what it left out. */
  row(kind: ImportKind | "licenses" | "servers", found: number | undefined, declared: number, extra: readonly string[] = []): void {
    const title = IMPORT_KINDS.find((k) => k.name === kind)?.title ?? (kind === "licenses" ? "Licenses" : "Servers");
    const reasons = this.skippedReasons.filter((s) => s.kind === kind).map((s) => (s.count !== undefined ? `${s.count}: ${s.reason}` : s.reason));
    this.summary.push({ kind: title, found, declared, skipped: [...reasons, ...extra] });
  }

  /**
   * A user's id in the program: the declared User's `userId` (native), `userId("name")` when the
   * users are declared in a loop (dynamic), else the id with its name.
   */
  userRef(userId: string): Value {
    const id = canonical(userId);
    const username = this.usernames.get(id);
    const declared = this.link("User", userId);
    if (declared !== undefined) return declared;
    if (this.usersDeclared && username !== undefined && !this.native) return new Code(`userId(${JSON.stringify(username)})`);
    return rawId(userId, username);
  }

  /**
   * The program's reference to an object's id (`<variable>.<id output>`) when the program declares
   * it with a variable (see {@link ProgramWriter.declare}), else undefined.
   */
  link(kind: KasmKind, id: string): Ref | undefined {
    return this.#links.get(linkKey(kind, id));
  }

  /** The resource name the program gives a declared object (without the installation's prefix), else undefined. */
  nameOf(kind: KasmKind, id: string): string | undefined {
    return this.#names.get(linkKey(kind, id));
  }

  /** The variables of the objects of a kind declared with one, in the order declared (what a later section depends on). */
  variablesOf(kind: KasmKind): readonly string[] {
    return this.#variables.get(kind) ?? [];
  }

  /** A group's id in the program: its declaration's `groupId` when declared, else the id with its name. */
  groupRef(groupId: string): Value {
    return this.link("Group", groupId) ?? rawId(groupId, this.groupNames.get(canonical(groupId)));
  }

  /**
   * An image's id in the program: its Workspace's `imageId` when declared, else the id with its
   * name (`name` when the record at hand names it, else the image list's friendly name).
   */
  imageRef(imageId: string, name?: string): Value {
    return this.link("Workspace", imageId) ?? rawId(imageId, name ?? this.imageNames.get(canonical(imageId)));
  }
}

/** The key of an object in the links: its kind and its canonical id. */
function linkKey(kind: KasmKind, id: string): string {
  return `${kind}:${canonicalId(id)}`;
}

/** Ids compare in any spelling: 32 hex digits, lower case. */
export function canonical(id: string): string {
  return id.replace(/-/g, "").toLowerCase();
}

/**
 * `ServerImport`'s rows: the fields of one server row (CSV column, type, how two values compare),
 * the declared rows of the inputs (`servers` or `csv`) with where each is declared, and the plan
 * of an update (rows added, changed, removed), compared by name.
 */
import { z } from "zod";
import { rowLabel, serverImportRows } from "../../../permissions/bulk-rows";
import { isKasmId, KASM_ID_MESSAGE } from "../../../permissions/planned-calls";
import { declareFields, same } from "../framework/fields";
import { isUnknown } from "../framework/check-wording";
import type { Props } from "../framework/types";
import type { KindOutputs } from "../framework/define-kind";

// --- types ---------------------------------------------------------------------------------------

/** What a text field must be: a string with something in it. */
const textValue = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .refine((v) => v.trim() !== "", { message: "must not be empty", abort: true });
const PORT_MESSAGE = "must be a whole number from 1 to 65535";

/**
 * One server row, the camelCase form of a CSV row, as a runtime schema in `check`'s words. It
 * reads a `servers` entry and a parsed CSV row alike ({@link serverRowSchema}); the rules that
 * span fields or rows (an SSH server cannot prompt for credentials; names unique within the set)
 * are check.ts's. Each message names no field: `check` adds `row 3 'ws-03', column port:` or
 * `servers[2].port` itself.
 */
export function serverRowSchema(fromCsv: boolean) {
  return z
    .object({
      /** The server's name in Kasm (its friendly name); unique within the set. */
      name: textValue,
      /** The address Kasm connects to. */
      ipHostname: textValue,
      port: z.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(1, PORT_MESSAGE).max(65535, PORT_MESSAGE).optional(),
      zoneName: textValue.optional(),
      /** `SSH`, or a remote display type such as `RDP`, `VNC` or `KasmVNC`. */
      connectionType: textValue.optional(),
      /** `STATIC`, `PROMPT_USER` or `SSO`; an SSH server cannot use `PROMPT_USER`. */
      connectionCredentialType: textValue.optional(),
      useUserPrivateKey: z.boolean({ error: fromCsv ? "must be true or false (or yes/no, 1/0)" : "must be true or false" }).optional(),
      poolId: textValue.refine(isKasmId, KASM_ID_MESSAGE).optional(),
      /** A user (by username) assigned to the server. */
      assignedUsername: textValue.optional(),
      labels: z
        .array(z.string({ error: "must be a list of strings" }), { error: "must be a list of strings" })
        .refine((labels) => labels.every((l) => !/[;,]/.test(l)), "a label must not contain ';' or ',' (Kasm's CSV separates labels with them)")
        .optional(),
    })
    .strict();
}

/** One server to import: the camelCase form of a CSV row. */
export type ServerRow = Readonly<z.infer<ReturnType<typeof serverRowSchema>>>;

/** What the provider adds to the inputs: the SDK class's computed outputs, which show these docs. */
export const ServerImportOutputs = z.strictObject({
  serverIds: z.record(z.string(), z.string()).describe("Server name -> the id (32 hex digits) of the server this resource imported under that name."),
});
export type ServerImportOutputs = z.infer<typeof ServerImportOutputs>;

/** A field of a server row. */
export type Field = keyof ServerRow;

/** Same text, blanks around aside. */
const text = (a: unknown, b: unknown) => String(a ?? "").trim() === String(b ?? "").trim();
/** Same text, blanks around and case aside. */
const caseless = (a: unknown, b: unknown) =>
  String(a ?? "")
    .trim()
    .toLowerCase() ===
  String(b ?? "")
    .trim()
    .toLowerCase();

/** Each field: its CSV column, its type in the `servers` input, and how two values compare. */
export const FIELDS: Readonly<
  Record<Field, { column: string; type: "text" | "port" | "boolean" | "id" | "labels"; equal: (a: unknown, b: unknown) => boolean }>
> = {
  name: { column: "name", type: "text", equal: text },
  ipHostname: { column: "ip_hostname", type: "text", equal: caseless },
  port: { column: "port", type: "port", equal: same.value },
  zoneName: { column: "zone_name", type: "text", equal: text },
  connectionType: { column: "connection_type", type: "text", equal: caseless },
  connectionCredentialType: { column: "connection_credential_type", type: "text", equal: caseless },
  useUserPrivateKey: { column: "use_user_private_key", type: "boolean", equal: same.value },
  poolId: { column: "pool_id", type: "id", equal: same.id },
  assignedUsername: { column: "assigned_username", type: "text", equal: same.username },
  labels: { column: "labels", type: "labels", equal: same.set },
};
/** The fields of a server row, in Kasm's column order. */
export const FIELD_NAMES = Object.keys(FIELDS) as Field[];
/**
 * The inputs of a ServerImport, as its `check` reads them: exactly one of `csv` (Kasm's batch
 * import CSV) and `servers` (the same rows as objects). `check` applies the row schema
 * ({@link serverRowSchema}) row by row, so that each problem names its row and column. A type
 * rather than an interface, so that it is the wire's `Props` too.
 */
export type ServerImportInputs = {
  readonly csv?: string;
  readonly servers?: ServerRow[];
};

/**
 * Each input of a ServerImport, declared once: its type, role and doc. Both are what Kasm holds,
 * sent as the rows of its batch import CSV, never as a body of their own.
 */
export const SERVER_IMPORT_FIELDS = declareFields({
  csv: {
    type: z.string().optional(),
    role: "sent",
    wire: false,
    doc:
      "Kasm's batch import CSV: a header line with any of `name, ip_hostname, port, zone_name, " +
      "connection_type, connection_credential_type, use_user_private_key, pool_id, " +
      "assigned_username, labels` (`name` and `ip_hostname` required; labels separated by `;`), then " +
      "one line per server.",
  },
  servers: {
    type: z.array(serverRowSchema(false)).optional(),
    role: "sent",
    wire: false,
    doc: "The servers as rows (see ServerImportRow).",
    objects: {
      name: "ServerImportRow",
      description: "One server of a ServerImport: the camelCase form of a row of Kasm's server CSV.",
      properties: {
        name: "The server's name in Kasm (its friendly name). Identifies the row: unique within the set.",
        ipHostname: "The host name or IP address Kasm connects to.",
        port: "The port of the connection (1-65535).",
        zoneName: "The deployment zone, by name.",
        connectionType: "`SSH`, or a remote display type such as `RDP`, `VNC` or `KasmVNC`.",
        connectionCredentialType: "`STATIC` (Kasm's default), `PROMPT_USER` or `SSO`. An SSH server cannot use `PROMPT_USER`.",
        useUserPrivateKey: "Connect with the user's own SSH private key (from the user's attributes).",
        poolId: "The server pool (32 hex digits or a hyphenated UUID).",
        assignedUsername: "A user, by username, to assign to the server (needs Users Modify; Users Modify Admin for " + "a user with Global Admin).",
        labels: "Labels, compared as a set; none may contain `;` or `,`.",
      },
    },
  },
});

/**
 * The inputs' shape, for what derives from the kind (its manifest: the registry test and the
 * package schema). `check` does not validate with it: it applies {@link serverRowSchema} row by
 * row to name each problem, and requires exactly one of the two.
 */
export const ServerImportInputSchema: z.ZodType<ServerImportInputs> = SERVER_IMPORT_FIELDS.schema;

/** The names of the inputs: exactly one of them is given. */
export const INPUTS: string[] = ["csv", "servers"] satisfies (keyof ServerImportInputs)[];

/** A declared row with where it was declared, for messages. */
export interface Located {
  readonly row: ServerRow;
  /** `servers[2] 'ws-03'` or `csv row 3 'ws-03'`. */
  readonly where: string;
}

// --- diff: rows compared by name -----------------------------------------------------------------

/** A declared row in normal form: strings trimmed, CSV cells converted, empty fields left out. */
function normalRow(raw: Props): ServerRow {
  const row: Record<string, unknown> = {};
  for (const field of FIELD_NAMES) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    row[field] = typeof value === "string" ? value.trim() : value;
  }
  return row as unknown as ServerRow;
}

/** The declared rows of `props` (csv or servers) with where each is declared; undefined when neither is given. */
export function declaredRows(props: Props): Located[] | undefined {
  const declared = serverImportRows(props, isUnknown);
  if (!declared) return undefined;
  return declared.rows.map((raw, i) => {
    const row = normalRow(raw ?? {});
    return { row, where: `${rowLabel(declared.source, "servers", i, declared.lines?.[i])} '${row.name}'` };
  });
}

/** What an update does to the set. */
export interface RowPlan {
  /** Rows whose name is new. */
  readonly added: Located[];
  /** Rows whose declared fields changed: imported again as new servers. */
  readonly changed: { located: Located; fields: Field[] }[];
  /** Names no longer declared: forgotten. */
  readonly removed: ServerRow[];
  /** Some row stopped declaring a field: only the state changes. */
  readonly forgotten: boolean;
}

/** What an update does: `after`'s rows compared with `before`'s by name. */
export function planRows(before: readonly Located[], after: readonly Located[]): RowPlan {
  const old = new Map(before.map((l) => [l.row.name, l.row]));
  const kept = new Set(after.map((l) => l.row.name));
  const plan: RowPlan = { added: [], changed: [], removed: before.filter((l) => !kept.has(l.row.name)).map((l) => l.row), forgotten: false };
  let forgotten = false;
  for (const located of after) {
    const previous = old.get(located.row.name);
    if (!previous) {
      plan.added.push(located);
      continue;
    }
    const fields = FIELD_NAMES.filter((f) => located.row[f] !== undefined && (previous[f] === undefined || !FIELDS[f].equal(previous[f], located.row[f])));
    if (fields.length) plan.changed.push({ located, fields });
    if (FIELD_NAMES.some((f) => previous[f] !== undefined && located.row[f] === undefined)) forgotten = true;
  }
  return { ...plan, forgotten };
}

/** What `outputs()` builds: the declared inputs and `serverIds`. */
export type ServerImportState = KindOutputs<ServerImportInputs, ServerImportOutputs>;

/** The state: the declared inputs (`csv` or `servers`, as they passed `check`) and `serverIds`. */
export function outputs(inputs: ServerImportInputs, serverIds: Record<string, string>): ServerImportState {
  return {
    serverIds,
    ...(inputs.csv !== undefined ? { csv: inputs.csv } : {}),
    ...(inputs.servers !== undefined ? { servers: inputs.servers } : {}),
  };
}

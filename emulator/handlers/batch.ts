/**
 * Batch creation of users and servers from a CSV file (multipart `file_content`).
 *
 * The file is parsed with csv-parse. A file that does not parse answers 400 `Invalid file
 * format: ...`. Every row is validated before anything is created: one invalid row answers 400
 * `Failed to import CSV file data` with the validation data, and nothing at all is created.
 * The `view` query picks what a success shows: `table` (default) the validation data, `api`
 * the created resources, `all` both.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
// The columns of Kasm's batch import format are the spec's, stated once in the catalogue for every reader.
import { SERVER_CSV_COLUMNS, USER_CSV_COLUMNS, USER_GROUP_COLUMN } from "../../permissions/bulk-rows";
import { CsvFormatError, CsvValidationFailed } from "../errors";
import { BATCH_USER_EXTRA } from "../fields";
import { MASK, newId, timestamp, type ServerRecord, type Store, type UserRecord } from "../store";
import { parse, type Call, type Handler } from "./common";
import { serverJson } from "./servers";
import { userJson } from "./users";

// --- validation data -----------------------------------------------------------------------------

/** The CSV validation error codes. 002, 009, 011 and 012 are the spec's; 003 and 010 are the emulator's. */
const CSV = {
  REQUIRED: { code: "CSV_ERROR_002", message: "Required fields are missing" },
  UNKNOWN_COLUMN: { code: "CSV_ERROR_003", message: "Unknown column" },
  NOT_ALLOWED: { code: "CSV_ERROR_009", message: "Value is not one of the allowed values" },
  DUPLICATE: { code: "CSV_ERROR_010", message: "Value must be unique" },
  NOT_FOUND: { code: "CSV_ERROR_011", message: "Referenced entity does not exist" },
  INCOMPATIBLE: { code: "CSV_ERROR_012", message: "Incompatible combination of values" },
} as const;

type CsvError = { code: string; message: string };

interface FieldData {
  field: string;
  value: string;
  error?: CsvError;
}

interface RowData {
  total_errors: number;
  contextual_errors: { code: string; message: string; fields: string[] }[];
  fields: FieldData[];
}

/** One row being validated: field errors and errors about several fields at once. */
class RowCheck {
  readonly fields: FieldData[];
  readonly contextual: RowData["contextual_errors"] = [];

  constructor(headers: string[], values: string[]) {
    this.fields = headers.map((field, i) => ({ field, value: values[i] ?? "" }));
  }

  value(field: string): string {
    return this.fields.find((f) => f.field === field)?.value.trim() ?? "";
  }

  fail(field: string, error: CsvError, detail?: string): void {
    const target = this.fields.find((f) => f.field === field);
    const full = { code: error.code, message: detail ? `${error.message}: ${detail}` : error.message };
    if (target && !target.error) target.error = full;
    else if (!target) this.contextual.push({ ...full, fields: [field] });
  }

  together(fields: string[], error: CsvError, detail: string): void {
    this.contextual.push({ code: error.code, message: `${error.message}: ${detail}`, fields });
  }

  data(): RowData {
    const fieldErrors = this.fields.filter((f) => f.error).length;
    return { total_errors: fieldErrors + this.contextual.length, contextual_errors: this.contextual, fields: this.fields };
  }
}

interface ParsedCsv {
  headers: string[];
  rows: string[][];
  bom: string;
}

/** Parse the uploaded file; anything csv-parse refuses is an `Invalid file format`. */
function readCsv(content: Buffer | undefined): ParsedCsv {
  if (!content || content.length === 0) throw new CsvFormatError("no file_content was uploaded, or it is empty");
  const text = content.toString("utf8");
  const bom = text.startsWith("\ufeff") ? "\ufeff" : "";
  let records: string[][];
  try {
    records = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (error) {
    throw new CsvFormatError((error as Error).message);
  }
  if (records.length === 0) throw new CsvFormatError("the file has no header row");
  const [headers, ...rows] = records;
  return { headers: headers.map((h) => h.trim()), rows, bom };
}

/** Global errors: required columns that are absent, and columns the import does not know. */
function headerErrors(headers: string[], required: readonly string[], isKnown: (h: string) => boolean) {
  const errors: { code: string; message: string; field_names: string[] }[] = [];
  const missing = required.filter((r) => !headers.includes(r));
  if (missing.length) errors.push({ ...CSV.REQUIRED, field_names: missing });
  const unknown = headers.filter((h) => !isKnown(h));
  if (unknown.length) errors.push({ ...CSV.UNKNOWN_COLUMN, field_names: unknown });
  return errors;
}

function validationData(csv: ParsedCsv, globalErrors: ReturnType<typeof headerErrors>, rows: RowData[]) {
  return {
    headers: csv.headers,
    total_errors: globalErrors.length + rows.reduce((sum, r) => sum + r.total_errors, 0),
    global_errors: globalErrors,
    total_rows: csv.rows.length,
    row_data: rows,
    file_bom: csv.bom,
  };
}

const View = z.enum(["api", "table", "all"]);

/** The success body for the `view` asked for. */
function success(view: z.infer<typeof View>, data: unknown, resources: unknown) {
  return {
    error_message: null,
    csv_validation_data: view === "api" ? null : data,
    resources: view === "table" ? null : resources,
  };
}

const BOOLEAN_VALUES = ["true", "false", "yes", "no", "1", "0", ""];
const isTrue = (v: string) => ["true", "yes", "1"].includes(v.toLowerCase());

// --- users ---------------------------------------------------------------------------------------

const REALMS = ["ldap", "local", "oidc", "saml"] as const;

/** A user record as batch creation returns it: the user plus the extra fields the spec lists. */
function batchUserJson(store: Store, user: UserRecord, call: Call) {
  return {
    ...userJson(store, user, call.caller, call.observedFields),
    ...BATCH_USER_EXTRA.form(
      {
        failed_pw_attempts: 0,
        plan_start_date: null,
        plan_end_date: null,
        plan_id: null,
        saml_id: user.saml_id,
        oidc_id: user.oidc_id,
        subscription_id: null,
        company_id: null,
        company: {},
        password_set_date: user.created,
        city: user.city,
        state: user.state,
        country: user.country,
        email: user.email,
        custom_attribute_1: null,
        custom_attribute_2: null,
        custom_attribute_3: null,
        crypt_password: MASK,
        crypt_salt: MASK,
      },
      call.observedFields,
    ),
  };
}

const batchCreateUser: Handler = (call) => {
  const { store, caller } = call;
  const view = parse(View.optional(), call.query.view, "view") ?? "table";
  const csv = readCsv(call.fileContent);
  const groupColumns = csv.headers.filter((h) => USER_GROUP_COLUMN.test(h));
  const groupNames = new Set(csv.rows.flatMap((r) => groupColumns.map((c) => (r[csv.headers.indexOf(c)] ?? "").trim())).filter(Boolean));
  caller.require("batch_create_user", {
    assignsGroups: groupNames.size > 0,
    targetGroupIsSystem: [...groupNames].some((n) => (store.groups.groupByName(n) ?? store.groups.group(n))?.is_system),
  });

  const globalErrors = headerErrors(csv.headers, ["username"], (h) => (USER_CSV_COLUMNS as readonly string[]).includes(h) || USER_GROUP_COLUMN.test(h));
  const seen = new Set<string>();
  const planned: { username: string; row: RowCheck; groupIds: string[] }[] = [];
  for (const values of csv.rows) {
    const row = new RowCheck(csv.headers, values);
    const username = row.value("username").toLowerCase();
    if (!username) row.fail("username", CSV.REQUIRED, "username");
    else if (store.users.userByName(username) || seen.has(username)) row.fail("username", CSV.DUPLICATE, `user (${username}) already exists`);
    seen.add(username);
    const realm = row.value("realm").toLowerCase();
    if (realm && !(REALMS as readonly string[]).includes(realm)) row.fail("realm", CSV.NOT_ALLOWED, REALMS.join(", "));
    if (!BOOLEAN_VALUES.includes(row.value("force_password_reset").toLowerCase())) row.fail("force_password_reset", CSV.NOT_ALLOWED, "true, false");
    const groupIds: string[] = [];
    for (const column of groupColumns) {
      const name = row.value(column);
      if (!name) continue;
      const group = store.groups.groupByName(name) ?? store.groups.group(name);
      if (!group) row.fail(column, CSV.NOT_FOUND, `group (${name}) not found`);
      else groupIds.push(group.group_id);
    }
    planned.push({ username, row, groupIds });
  }
  const rowData = planned.map((p) => p.row.data());
  const data = validationData(csv, globalErrors, rowData);
  if (data.total_errors > 0) throw new CsvValidationFailed(data);

  store.users.checkNamedUserSeats(planned.length);
  const users = planned.map(({ username, row, groupIds }) =>
    store.users.buildUser(
      username,
      {
        realm: (row.value("realm").toLowerCase() || "local") as UserRecord["realm"],
        first_name: row.value("first_name") || null,
        last_name: row.value("last_name") || null,
        phone: row.value("phone_number") || null,
        organization: row.value("organization") || null,
        force_password_reset: isTrue(row.value("force_password_reset")),
        city: row.value("city") || null,
        state: row.value("state") || null,
        country: row.value("country") || null,
        email: row.value("email") || null,
      },
      groupIds,
    ),
  );
  for (const u of users) store.users.insertUser(u);
  return success(view, data, { users: users.map((u) => batchUserJson(store, u, call)) });
};

// --- servers -------------------------------------------------------------------------------------

const SERVER_REQUIRED = ["name", "ip_hostname", "port", "zone_name", "connection_type"] as const;
const CONNECTION_TYPES = ["SSH", "RDP", "VNC", "KasmVNC"];
const CREDENTIAL_TYPES = ["STATIC", "PROMPT_USER", "SSO"];

const batchCreateServer: Handler = (call) => {
  const { store, caller } = call;
  const view = parse(View.optional(), call.query.view, "view") ?? "table";
  const csv = readCsv(call.fileContent);
  const assigned = csv.headers.includes("assigned_username")
    ? csv.rows.map((r) => (r[csv.headers.indexOf("assigned_username")] ?? "").trim()).filter(Boolean)
    : [];
  caller.require("batch_create_server", {
    assignsUsers: assigned.length > 0,
    targetUserIsGlobalAdmin: assigned.some((name) => {
      const user = store.users.userByName(name);
      return !!user && store.users.isGlobalAdmin(user);
    }),
  });

  const globalErrors = headerErrors(csv.headers, SERVER_REQUIRED, (h) => (SERVER_CSV_COLUMNS as readonly string[]).includes(h));
  const planned: { row: RowCheck; server: ServerRecord; assignTo?: UserRecord }[] = [];
  for (const values of csv.rows) {
    const row = new RowCheck(csv.headers, values);
    for (const field of SERVER_REQUIRED) if (!row.value(field)) row.fail(field, CSV.REQUIRED, field);
    const port = Number(row.value("port"));
    if (row.value("port") && !(Number.isInteger(port) && port >= 1 && port <= 65535)) row.fail("port", CSV.NOT_ALLOWED, "1 to 65535");
    const zone = store.servers.zoneByName(row.value("zone_name"));
    if (row.value("zone_name") && !zone) row.fail("zone_name", CSV.NOT_FOUND, `zone (${row.value("zone_name")}) not found`);
    const connectionType = CONNECTION_TYPES.find((t) => t.toLowerCase() === row.value("connection_type").toLowerCase());
    if (row.value("connection_type") && !connectionType) row.fail("connection_type", CSV.NOT_ALLOWED, CONNECTION_TYPES.join(", "));
    const credentialType = row.value("connection_credential_type").toUpperCase() || "STATIC";
    if (!CREDENTIAL_TYPES.includes(credentialType)) row.fail("connection_credential_type", CSV.NOT_ALLOWED, CREDENTIAL_TYPES.join(", "));
    if (connectionType === "SSH" && credentialType === "PROMPT_USER")
      row.together(["connection_type", "connection_credential_type"], CSV.INCOMPATIBLE, "SSH servers cannot prompt the user for credentials");
    if (!BOOLEAN_VALUES.includes(row.value("use_user_private_key").toLowerCase())) row.fail("use_user_private_key", CSV.NOT_ALLOWED, "true, false");
    const pool = row.value("pool_id") ? store.servers.serverPool(row.value("pool_id")) : undefined;
    if (row.value("pool_id") && !pool) row.fail("pool_id", CSV.NOT_FOUND, `server pool (${row.value("pool_id")}) does not exist`);
    const assignTo = row.value("assigned_username") ? store.users.userByName(row.value("assigned_username")) : undefined;
    if (row.value("assigned_username") && !assignTo) row.fail("assigned_username", CSV.NOT_FOUND, `user (${row.value("assigned_username")}) not found`);
    const server: ServerRecord = {
      server_id: newId(),
      created: timestamp(),
      server_type: "Desktop",
      hostname: row.value("ip_hostname"),
      friendly_name: row.value("name") || null,
      port,
      connection_type: connectionType ?? row.value("connection_type"),
      connection_credential_type: credentialType,
      connection_username: null,
      connection_password: null,
      connection_private_key: null,
      connection_passphrase: null,
      use_user_private_key: isTrue(row.value("use_user_private_key")),
      zone_id: zone?.zone_id ?? "",
      server_pool_id: pool?.server_pool_id ?? null,
      enabled: true,
      is_draining: false,
      labels: row
        .value("labels")
        .split(/[;,]/)
        .map((l) => l.trim())
        .filter(Boolean),
      max_simultaneous_sessions: 1,
      max_simultaneous_users: 1,
      operational_status: "running",
    };
    planned.push({ row, server, assignTo });
  }
  const data = validationData(
    csv,
    globalErrors,
    planned.map((p) => p.row.data()),
  );
  if (data.total_errors > 0) throw new CsvValidationFailed(data);

  for (const { server, assignTo } of planned) {
    store.servers.insertServer(server);
    if (assignTo) store.users.assignUserServer(assignTo.user_id, server.server_id);
  }
  return success(view, data, { servers: planned.map((p) => serverJson(store, p.server, call.observedFields)) });
};

/** The handlers of this area, by operation. */
export const batchHandlers = {
  batch_create_user: batchCreateUser,
  batch_create_server: batchCreateServer,
} satisfies Record<string, Handler>;

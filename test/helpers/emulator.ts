/**
 * Test harness: start an emulator over HTTP and call it with raw requests, so that tests assert
 * the wire contract (status and literal JSON) without going through the API client.
 */
import { request } from "undici";
import { OPERATIONS, type OperationName } from "../../permissions";
import type { AuthAnswers } from "../../emulator/errors";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import type { SeedInput } from "../../emulator/seed";
import { FIELD_RENAMES, wireOperationName, type ApiNames } from "../../emulator/vocabulary";
import { TEST_API_NAMES } from "./vocabulary";

/** The admin key every test seed has. */
export const ADMIN = { key: "admin-key", secret: "admin-secret" } as const;

/** A raw answer: status, headers and the parsed JSON body (or the text when it is not JSON). */
export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A running emulator with helpers to call it. */
export interface TestEmulator extends RunningEmulator {
  /**
   * Call an operation with a JSON body, using its method from the operation table, at its path in
   * the emulator's vocabulary (`request_kasm` for `request_ws` in product mode); credentials
   * default to ADMIN. The body is sent as given: write it in the emulator's vocabulary.
   */
  call(operation: OperationName, body?: Record<string, unknown>, creds?: { key: string; secret: string } | null): Promise<WireAnswer>;
  /** Send an arbitrary request. */
  raw(method: string, path: string, options?: { body?: string | Buffer; headers?: Record<string, string> }): Promise<WireAnswer>;
  /** The whole store, from `GET /__emulator/state`. */
  state(): Promise<any>;
  /**
   * Inject faults (`POST /__emulator/faults`, the body as emulator/README.md lists it), or with
   * `null` stop injecting them (`DELETE`). Fails unless the emulator took the setting.
   */
  faults(config: Record<string, unknown> | null): Promise<void>;
  /** The id of the user with this username, read over the API. */
  userId(username: string): Promise<string>;
  /** One line per API request served so far (`<operation> <status> <ms>`), to check what was sent. */
  readonly requests: string[];
  /**
   * {@link TestEmulator.call} in the spec's names whatever the emulator speaks: the body's names
   * are written in the emulator's vocabulary and the answer's read back into the spec's (with
   * `get_servers` as `{server}` and an empty `get_users` as `{users: []}`), by the emulator's own
   * table. For tests that check what Kasm holds, not what the wire looks like.
   */
  specCall(operation: OperationName, body?: Record<string, unknown>, creds?: { key: string; secret: string } | null): Promise<WireAnswer>;
}

/** An id of 32 hex digits in hyphenated UUID form: the emulator and the providers take both. */
export function hyphenated(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The same in upper case, to show that neither the form nor the case of an id matters. */
export function hyphenatedUpperCase(hex: string): string {
  return hyphenated(hex).toUpperCase();
}

/** The status and body of an answer, to compare with a literal. */
export function wire(res: WireAnswer): { status: number; body: any } {
  return { status: res.status, body: res.body };
}

/** A seed with the ADMIN key (Global Admin) added to what the test gives. */
export function seedWithAdmin(seed: SeedInput = {}): SeedInput {
  return {
    ...seed,
    apiKeys: [{ name: "admin", key: ADMIN.key, secret: ADMIN.secret, permissions: ["Global Admin"] }, ...(seed.apiKeys ?? [])],
  };
}

async function answer(res: Awaited<ReturnType<typeof request>>): Promise<WireAnswer> {
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers: res.headers, body };
}

/** How a test emulator starts besides its seed. */
export interface TestEmulatorOptions {
  /** Persist to this file, and resume from it when it exists. */
  dataFile?: string;
  /**
   * Also answer with the fields the real product is known to send beyond the spec (such as a
   * server's `is_draining`). Default: the seed's flag, else the spec-only mode.
   */
  observedFields?: boolean;
  /**
   * The names the emulator speaks. Default: the seed's `apiNames`, else this run's vocabulary
   * (`vocabulary.ts`: `spec` unless the vitest project sets KASM_TEST_API_NAMES), so that the
   * suites that run in both vocabularies get an emulator matching the provider.
   */
  apiNames?: ApiNames;
  /** Which release's authentication answers it gives (default: the seed's, else 1.19). */
  authAnswers?: AuthAnswers;
}

/** The path of an operation on an emulator speaking `apiNames`. */
export function operationPath(operation: OperationName, apiNames: ApiNames): string {
  return OPERATIONS[operation].path.replace(/[^/]+$/, wireOperationName(operation, apiNames));
}

/** Start an emulator seeded with `seed` plus the ADMIN key. */
export async function startTestEmulator(seed: SeedInput = {}, options: TestEmulatorOptions = {}): Promise<TestEmulator> {
  const requests: string[] = [];
  const emulator = await startEmulator({
    port: 0,
    seed: seedWithAdmin(seed),
    dataFile: options.dataFile,
    observedFields: options.observedFields,
    // The seed's own apiNames wins over the run's vocabulary, as it does on the command line.
    apiNames: options.apiNames ?? (seed.apiNames === undefined ? TEST_API_NAMES : undefined),
    authAnswers: options.authAnswers,
    log: (line) => requests.push(line),
  });
  const raw: TestEmulator["raw"] = async (method, path, opts = {}) =>
    answer(await request(`${emulator.url}${path}`, { method: method as never, body: opts.body, headers: opts.headers }));
  const call: TestEmulator["call"] = (operation, body = {}, creds = ADMIN) => {
    const spec = OPERATIONS[operation];
    const payload = creds ? { api_key: creds.key, api_key_secret: creds.secret, ...body } : body;
    return raw(spec.method, operationPath(operation, emulator.apiNames), { body: JSON.stringify(payload), headers: { "content-type": "application/json" } });
  };
  return {
    ...emulator,
    requests,
    raw,
    call,
    specCall: async (operation, body = {}, creds = ADMIN) => {
      if (emulator.apiNames === "spec") return call(operation, body, creds);
      const res = await call(operation, renamed(body, PRODUCT_BY_SPEC) as Record<string, unknown>, creds);
      let answerBody = renamed(res.body, SPEC_BY_PRODUCT) as any;
      if (operation === "get_servers" && Array.isArray(answerBody?.servers)) answerBody = { server: answerBody.servers[0] };
      if (operation === "get_users" && res.status === 200 && answerBody?.users === undefined) answerBody = { ...answerBody, users: [], total: 0 };
      return { ...res, body: answerBody };
    },
    state: async () => (await raw("GET", "/__emulator/state")).body,
    faults: async (config) => {
      const res = config
        ? await raw("POST", "/__emulator/faults", { body: JSON.stringify(config), headers: { "content-type": "application/json" } })
        : await raw("DELETE", "/__emulator/faults");
      if (res.status >= 300) throw new Error(`the emulator refused the faults setting: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    },
    userId: async (username) => {
      const res = await raw("POST", OPERATIONS.get_user.path, {
        body: JSON.stringify({ api_key: ADMIN.key, api_key_secret: ADMIN.secret, target_user: { username } }),
        headers: { "content-type": "application/json" },
      });
      return res.body.user.user_id;
    },
  };
}

const PRODUCT_BY_SPEC = new Map(FIELD_RENAMES.map((r) => [r.spec, r.product]));
const SPEC_BY_PRODUCT = new Map(FIELD_RENAMES.map((r) => [r.product, r.spec]));

/** A copy of `value` with the keys of its objects renamed by `names`, at any depth. */
function renamed(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, names));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [names.get(key) ?? key, renamed(item, names)]));
}

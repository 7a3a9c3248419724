/**
 * Shared set-up of the client tests: an emulator seeded with keys, users, images, zones, servers
 * and sessions, and a client pointed at it.
 */
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import type { SeedInput } from "../../emulator/seed";
import { createKasmClient, type KasmClient, type KasmClientOptions, type KasmLogger } from "../../provider/api";

/** The admin key's secret: distinctive, so that a test can search any output for it. */
export const ADMIN_SECRET = "s3cr3t-admin-Zq8Wm2";
/** Keys of the seed, by role. */
export const KEYS = {
  admin: { key: "admin-key", secret: ADMIN_SECRET },
  /** Users View only. */
  viewer: { key: "viewer-key", secret: "viewer-secret-Kq1" },
  /** Global Admin, but Read Only. */
  readOnly: { key: "readonly-key", secret: "readonly-secret-Pw4" },
} as const;

/** The activation key of the seed (a secret). */
export const ACTIVATION_KEY = "-----BEGIN ACTIVATION KEY-----\nTEST-PARTNER-KEY-77\n-----END ACTIVATION KEY-----";

/** The seed of the client tests. */
export const SEED: SeedInput = {
  apiKeys: [
    { name: "admin", key: KEYS.admin.key, secret: KEYS.admin.secret, permissions: ["Global Admin"] },
    { name: "viewer", key: KEYS.viewer.key, secret: KEYS.viewer.secret, permissions: ["Users View"] },
    { name: "read-only", key: KEYS.readOnly.key, secret: KEYS.readOnly.secret, permissions: ["Global Admin"], readOnly: true },
  ],
  groups: [{ name: "Engineering" }, { name: "Contractors" }, { name: "Finance" }],
  zones: [{ zone_name: "default" }, { zone_name: "eu-west" }],
  images: [
    { name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", zone_name: "default" },
    { name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal", exec_config: { first_launch: { cmd: "bash -c 'echo hello'" } } },
    { name: "kasmweb/firefox:1.16.0", friendly_name: "Firefox" },
  ],
  serverPools: [{ server_pool_name: "Workstations" }],
  servers: [
    { hostname: "ws1.example.org", friendly_name: "Workstation 1", connection_type: "SSH", zone_name: "default", server_pool_name: "Workstations" },
    { hostname: "ws2.example.org", friendly_name: "Workstation 2", connection_type: "RDP", zone_name: "default" },
  ],
  users: [
    { username: "alice", password: "correct horse battery", first_name: "Alice", groups: ["Administrators"] },
    { username: "bob", first_name: "Bob", groups: ["Engineering"] },
  ],
  sessions: [{ username: "bob", image_name: "kasmweb/terminal:1.16.0", recordings: [120, 300, 60, 30, 45, 90] }],
  activationKeys: [{ activation_key: ACTIVATION_KEY, seats: 50, license_type: "Per Concurrent Session" }],
};

/** A running emulator and a client of it. */
export interface Harness {
  readonly emulator: RunningEmulator;
  readonly client: KasmClient;
  /** The emulator's whole store. */
  state(): Promise<any>;
  /** A control route of the emulator. */
  control(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

/** Start an emulator with {@link SEED} (or `seed`) and a client with the admin key. */
export async function startHarness(options: { seed?: SeedInput; client?: KasmClientOptions } = {}): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, seed: options.seed ?? SEED });
  const client = createKasmClient({ baseUrl: emulator.url, apiKey: KEYS.admin.key, apiKeySecret: KEYS.admin.secret, ...options.client }, {});
  const control: Harness["control"] = async (method, path, body) => {
    const res = await request(`${emulator.url}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { "content-type": "application/json" },
    });
    return res.body.json();
  };
  return {
    emulator,
    client,
    state: () => control("GET", "/__emulator/state"),
    control,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

/** A logger that keeps every line, with its fields serialised, for assertions. */
export function captureLogger(): KasmLogger & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message}${fields === undefined ? "" : ` ${JSON.stringify(fields)}`}`);
  };
  return { lines, debug: write("debug"), info: write("info"), warn: write("warn") };
}

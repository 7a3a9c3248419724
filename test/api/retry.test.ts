/**
 * The retry policy and what each kind of operation does after a failure, against a scripted
 * local HTTP server: reads and updates are repeated, creates look up before repeating, deletes and
 * membership changes count "already done" answers as success, and `once` operations are never
 * repeated once they may have reached the server.
 */
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  KasmRateLimitError,
  KasmServerError,
  KasmTimeoutError,
  KasmTransportError,
  REPEAT_MODES,
  RetryPolicy,
  createKasmClient,
  type KasmClient,
  type KasmClientOptions,
} from "../../provider/api";
import { parseRetryAfter } from "../../provider/api/retry";
import { captureLogger } from "./helpers";
import { startLocalServer, userRecord, type LocalServer } from "./local-server";

const SECRET = "local-secret-Xy7";
let server: LocalServer;
let client: KasmClient;

function clientFor(url: string, options: KasmClientOptions = {}): KasmClient {
  return createKasmClient({ baseUrl: url, apiKey: "k", apiKeySecret: SECRET, maxRetries: 3, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options }, {});
}

beforeEach(async () => {
  server = await startLocalServer();
  client = clientFor(server.url);
});
afterEach(async () => {
  await client.close();
  await server.close();
});

describe("the retry policy", () => {
  it("backs off exponentially with full jitter, capped at the maximum delay", () => {
    const high = new RetryPolicy({ maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999 });
    expect([1, 2, 3, 4, 5].map((n) => high.delayMs(n))).toEqual([99, 199, 399, 799, 999]);
    const low = new RetryPolicy({ maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
    expect(low.delayMs(3)).toBe(0);
  });

  it("honours Retry-After (seconds or a date), capped at the maximum delay", () => {
    const policy = new RetryPolicy({ maxRetries: 5, baseDelayMs: 100, maxDelayMs: 30_000 });
    expect(policy.delayMs(1, "2")).toBe(2000);
    expect(new RetryPolicy({ maxRetries: 5, baseDelayMs: 100, maxDelayMs: 50 }).delayMs(1, "1")).toBe(50);
    const inFiveSeconds = new Date(Date.now() + 5000).toUTCString();
    expect(parseRetryAfter(inFiveSeconds)).toBeGreaterThan(3000);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("treats 429, 5xx and broken connections as transient, and 4xx as final", () => {
    const policy = new RetryPolicy({ maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 });
    for (const status of [429, 500, 502, 503, 504]) expect(policy.isTransient({ status })).toBe(true);
    for (const status of [400, 401, 403, 404]) expect(policy.isTransient({ status })).toBe(false);
    for (const code of ["ECONNRESET", "ECONNREFUSED", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"])
      expect(policy.isTransient({ code })).toBe(true);
    // A `once` operation is re-sent only when the request cannot have reached the server.
    expect(policy.mayResend("once", { code: "ECONNREFUSED" })).toBe(true);
    expect(policy.mayResend("once", { code: "ECONNRESET" })).toBe(false);
    expect(policy.mayResend("once", { status: 503 })).toBe(false);
    expect(policy.mayResend("recover", { status: 503 })).toBe(false);
    expect(policy.mayResend("idempotent", { status: 503 })).toBe(true);
  });

  it("classifies every creating operation as never blindly repeated", () => {
    const creates = Object.entries(REPEAT_MODES).filter(([op]) => /^(create|batch_create|activate|request_ws|exec)/.test(op));
    for (const [op, mode] of creates) expect(mode, op).not.toBe("idempotent");
  });
});

describe("reads and updates", () => {
  it("repeats a read after 503 and a reset connection, then succeeds", async () => {
    const logger = captureLogger();
    await client.close();
    client = clientFor(server.url, { logger });
    server.script(
      "get_user",
      { status: 503, body: { error_message: "Service Unavailable" } },
      { reset: true },
      { status: 200, body: { user: userRecord("amy") } },
    );
    expect((await client.users.getUser({ username: "amy" })).username).toBe("amy");
    expect(server.operations()).toEqual(["get_user", "get_user", "get_user"]);
    expect(logger.lines.filter((l) => l.includes("retrying"))).toHaveLength(2);
  });

  it("repeats an update (a POST) after a 500", async () => {
    server.script("update_user", { status: 500, body: { error_message: "Internal Server Error" } }, { status: 200, body: { user: userRecord("amy") } });
    await client.users.updateUser({ user_id: "0123456789abcdef0123456789abcdef", username: "amy", first_name: "Amy" });
    expect(server.operations()).toEqual(["update_user", "update_user"]);
    // The same body both times.
    expect(server.requests[0].body).toBe(server.requests[1].body);
  });

  it("honours Retry-After on 429 up to the configured maximum delay", async () => {
    server.script(
      "get_images",
      { status: 429, body: { error_message: "Too Many Requests" }, headers: { "retry-after": "1" } },
      { status: 200, body: { images: [] } },
    );
    const started = Date.now();
    await client.images.getImages();
    expect(Date.now() - started).toBeLessThan(900); // capped at retryMaxDelayMs (20 ms), not the asked 1 s
    expect(server.operations()).toEqual(["get_images", "get_images"]);
  });

  it("does not repeat a 400", async () => {
    server.script("get_users", { status: 400, body: { error_message: "Invalid Request: page_size: must be from 1 to 1000" } });
    await expect(client.users.getUsers({ page_size: 5000 })).rejects.toMatchObject({ kind: "bad_request", status: 400, attempts: 1 });
    expect(server.operations()).toEqual(["get_users"]);
  });

  it("gives up after maxRetries with the last answer's status and message", async () => {
    server.fallback = () => ({ status: 503, body: { error_message: "Service Unavailable" } });
    const error = await client.zones.getZones().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasmServerError);
    expect(error).toMatchObject({ operation: "get_zones", status: 503, errorMessage: "Service Unavailable", attempts: 4 });
    expect(server.requests).toHaveLength(4);
  });

  it("gives up on 429 with a rate-limit error", async () => {
    server.fallback = () => ({ status: 429, body: { error_message: "Too Many Requests" }, headers: { "retry-after": "0" } });
    await expect(client.zones.getZones()).rejects.toBeInstanceOf(KasmRateLimitError);
  });

  it("times out a request that gets no answer, and retries it", async () => {
    await client.close();
    client = clientFor(server.url, { requestTimeoutMs: 100, maxRetries: 1 });
    server.fallback = () => ({ hang: true });
    const error = await client.images.getImages().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasmTimeoutError);
    expect(error).toMatchObject({ kind: "timeout", code: "UND_ERR_HEADERS_TIMEOUT", attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });
});

describe("creates", () => {
  it("looks the user up after a failure before the commit, finds nothing, and creates again", async () => {
    server.script("create_user", { status: 500, body: { error_message: "Internal Server Error" } }, { status: 200, body: { user: userRecord("bea") } });
    server.script("get_user", { status: 400, body: { error_message: "Invalid Request" } });
    const user = await client.users.createUser({ username: "Bea", password: "pw-bea-secret" });
    expect(user.username).toBe("bea");
    expect(server.operations()).toEqual(["create_user", "get_user", "create_user"]);
    // The lookup uses the name as the server stores it: stripped and lowercased.
    expect(server.requests[1].json.target_user).toEqual({ username: "bea" });
  });

  it("adopts the user a failed attempt committed, without creating it again", async () => {
    server.script("create_user", { reset: true });
    server.script("get_user", { status: 200, body: { user: userRecord("cy") } });
    const user = await client.users.createUser({ username: "cy" });
    expect(user.username).toBe("cy");
    expect(server.operations()).toEqual(["create_user", "get_user"]);
  });

  it("adopts the object when the repeated create is refused as a duplicate (the first committed late)", async () => {
    const existing = { egress_provider_id: "11111111111111111111111111111111", name: "vpn", egress_provider_type: "wireguard", enabled: true };
    server.script(
      "create_egress_provider",
      { status: 503, body: {} },
      { status: 400, body: { error_message: "An egress provider named (vpn) already exists" } },
    );
    server.script("get_egress_providers", { status: 200, body: { egress_providers: [] } }, { status: 200, body: { egress_providers: [existing] } });
    const provider = await client.egress.createEgressProvider({ name: "vpn", egress_provider_type: "wireguard", enabled: true });
    expect(provider).toEqual(existing);
    expect(server.operations()).toEqual(["create_egress_provider", "get_egress_providers", "create_egress_provider", "get_egress_providers"]);
  });

  it("never takes an image that was there before for its own: Kasm allows two of one name and friendly name", async () => {
    const twin = { image_id: "33333333333333333333333333333333", name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" };
    const created = { ...twin, image_id: "44444444444444444444444444444444" };
    server.script("get_images", { status: 200, body: { images: [twin] } }, { status: 200, body: { images: [twin] } });
    server.script("create_image", { status: 503, body: {} }, { status: 200, body: { image: created } });
    await client.close();
    client = clientFor(server.url, { apiNames: "product" });
    const image = await client.images.createImage({ name: twin.name, friendly_name: twin.friendly_name });
    expect(image.image_id).toBe(created.image_id);
    expect(server.operations()).toEqual(["get_images", "create_image", "get_images", "create_image"]);
  });

  it("reports a genuine duplicate on the first attempt as a bad request", async () => {
    server.script("create_user", { status: 400, body: { error_message: "Error creating user (dee): (User already exists)" } });
    await expect(client.users.createUser({ username: "dee" })).rejects.toMatchObject({
      kind: "bad_request",
      errorMessage: "Error creating user (dee): (User already exists)",
    });
    expect(server.operations()).toEqual(["create_user"]);
  });

  it("takes a duplicate-key refusal of a repeated casting config create as the first attempt's commit", async () => {
    const config = { casting_config_name: "kiosk", image_id: "22222222222222222222222222222222", key: "kiosk-key" };
    server.script(
      "create_cast_config",
      { status: 500, body: {} },
      {
        status: 400,
        body: { error_message: "A Cast config with existing key (kiosk-key) OR configuration name (kiosk) exists. Key/Configuration Name must be unique" },
      },
    );
    const result = await client.casting.createCastConfig(config);
    expect(result).toEqual({ confirmed: false, cast_config: config });
  });

  it("never repeats a `once` operation that may have reached the server, and says it may have been applied", async () => {
    server.script("activate", { status: 503, body: { error_message: "Service Unavailable" } });
    const error = await client.licenses.activate({ activation_key: "-----BEGIN KEY-----\nK\n-----END KEY-----" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasmServerError);
    expect((error as Error).message).toContain("may have been applied");
    expect(server.operations()).toEqual(["activate"]);
  });

  it("repeats even a `once` operation when the connection was refused (nothing was sent)", async () => {
    const port = await closedPort();
    await client.close();
    client = clientFor(`http://127.0.0.1:${port}`, { maxRetries: 2 });
    const error = await client.licenses.activate({ activation_key: "k" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasmTransportError);
    expect(error).toMatchObject({ kind: "transport", code: "ECONNREFUSED", attempts: 3 });
    // Nothing reached the server: the message must not suggest the license may have been activated.
    expect((error as Error).message).not.toContain("may have been applied");
    expect((error as Error).message).toContain("never reached the server, so nothing was applied");
  });
});

describe("deletes and membership changes", () => {
  it("counts 'does not exist' after a retried delete as done", async () => {
    server.script(
      "delete_staging_config",
      { status: 500, body: {} },
      { status: 400, body: { error_message: "Staging config with id (33333333333333333333333333333333) does not exist" } },
    );
    await client.staging.deleteStagingConfig({ staging_config_id: "33333333333333333333333333333333" });
    expect(server.operations()).toEqual(["delete_staging_config", "delete_staging_config"]);
  });

  it("reports 'does not exist' on a first delete attempt as not found", async () => {
    server.script("delete_user", { status: 400, body: { error_message: "Unknown user (44444444444444444444444444444444)" } });
    await expect(client.users.deleteUser({ user_id: "44444444444444444444444444444444" })).rejects.toMatchObject({ kind: "not_found" });
  });

  it("counts 'already a member' after a retried add_user_group as done, and 'is not a member' after a retried remove", async () => {
    const membership = { user_id: "55555555555555555555555555555555", group_id: "66666666666666666666666666666666" };
    server.script("add_user_group", { reset: true }, { status: 400, body: { error_message: "User (5555) is already a member of group (6666)" } });
    server.script("remove_user_group", { status: 503, body: {} }, { status: 400, body: { error_message: "User (5555) is not a member of group (6666)" } });
    await client.groups.addUserGroup(membership);
    await client.groups.removeUserGroup(membership);
    expect(server.operations()).toEqual(["add_user_group", "add_user_group", "remove_user_group", "remove_user_group"]);
  });

  it("reports 'already a member' on a first attempt", async () => {
    server.script("add_user_group", { status: 400, body: { error_message: "User (5555) is already a member of group (6666)" } });
    await expect(
      client.groups.addUserGroup({ user_id: "55555555555555555555555555555555", group_id: "66666666666666666666666666666666" }),
    ).rejects.toMatchObject({ kind: "bad_request" });
  });
});

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Every error class of the client, raised by real answers of the emulator (or a scripted server
 * for what the emulator does not do), and the promise that no secret ever shows up in an error
 * message, a serialised or inspected error, its cause, or a log line.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  KasmAlreadyExistsError,
  KasmAlreadyMemberError,
  KasmApiError,
  KasmAuthenticationError,
  KasmForceRequiredError,
  KasmNotAssignedError,
  KasmNotMemberError,
  KasmUnknownCastConfigError,
  KasmUnknownUserError,
  KasmBadRequestError,
  KasmLicenseLimitError,
  KasmNotFoundError,
  KasmPermissionError,
  KasmResponseShapeError,
  KasmTimeoutError,
  KasmTransportError,
  KasmUnknownPathError,
  REDACTED,
  createKasmClient,
  errorForStatus,
  redact,
  scrubText,
  type KasmClient,
} from "../../provider/api";
import { ACTIVATION_KEY, ADMIN_SECRET, KEYS, SEED, captureLogger, startHarness, type Harness } from "./helpers";
import { startLocalServer } from "./local-server";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A client of the test emulator with another key, or other options. */
function clientWith(key: { key: string; secret: string }, options: Parameters<typeof createKasmClient>[0] = {}): KasmClient {
  return createKasmClient({ baseUrl: h.emulator.url, apiKey: key.key, apiKeySecret: key.secret, maxRetries: 0, ...options }, {});
}

async function failure(promise: Promise<unknown>): Promise<KasmApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KasmApiError);
  return error as KasmApiError;
}

/** Everything a user could print of an error. */
function printed(error: unknown): string {
  return [String(error), (error as Error).message, JSON.stringify(error), inspect(error, { showHidden: true, depth: 20 })].join("\n");
}

describe("error classes", () => {
  it("401: authentication, without the wrong secret anywhere", async () => {
    const wrong = "wrong-secret-Hh3";
    const client = clientWith({ key: KEYS.admin.key, secret: wrong });
    const error = await failure(client.images.getImages());
    await client.close();
    expect(error).toBeInstanceOf(KasmAuthenticationError);
    expect(error).toMatchObject({ kind: "authentication", status: 401, operation: "get_images", errorMessage: "Invalid user name or password." });
    expect(error.message).toContain("Check the API key and secret");
    expect(printed(error)).not.toContain(wrong);
  });

  it("403: permission, naming the permissions to grant with their dependencies", async () => {
    const client = clientWith(KEYS.viewer);
    const error = await failure(client.staging.createStagingConfig({ zone_id: "a".repeat(32), image_id: "b".repeat(32), num_sessions: 1, expiration: 1 }));
    await client.close();
    expect(error).toBeInstanceOf(KasmPermissionError);
    const permission = error as KasmPermissionError;
    expect(permission).toMatchObject({ kind: "permission", status: 403, errorMessage: "Unauthorized.", requiredPermissions: ["Staging Create"] });
    expect(permission.toGrant).toEqual(["Staging Create", "Staging View"]);
    expect(permission.message).toContain("The API key needs all of: Staging Create, Staging View; grant those it lacks");
    expect(permission.message).toContain("Staging View is needed by the permission dependency rules");
    expect(permission.message).toContain("Read Only");
  });

  it("403: names the target's permission for an egress mapping, and the alternatives of get_servers", async () => {
    const egress = errorForStatus({
      operation: "create_egress_provider_mapping",
      status: 403,
      errorMessage: "Unauthorized.",
      context: { targetIsGroup: true },
    });
    expect((egress as KasmPermissionError).requiredPermissions).toEqual(["Egress Providers Modify", "Groups Modify"]);
    expect(egress.message).toContain("Groups Modify System when it targets a system group");
    const servers = errorForStatus({ operation: "get_servers", status: 403, errorMessage: "Unauthorized." }) as KasmPermissionError;
    expect(servers.requiredOneOf).toEqual(["Servers View", "Agents View"]);
    expect(servers.message).toContain("any one of Servers View or Agents View");
  });

  it("401 `API Key (<name>) unauthorized for deleting the requested user ...` (1.15's delete_user): permission, naming Users Modify Admin and Sessions Delete for their cases, not the credentials", () => {
    for (const [errorMessage, context, permission] of [
      ["API Key (ci) unauthorized for deleting the requested user (ada).", { targetUserIsGlobalAdmin: true }, "Users Modify Admin"],
      ["API Key (ci) unauthorized for deleting the requested user (ada) sessions.", { targetUserHasSessions: true }, "Sessions Delete"],
    ] as const) {
      const error = errorForStatus({ operation: "delete_user", status: 401, errorMessage, context });
      expect(error).toBeInstanceOf(KasmPermissionError);
      expect((error as KasmPermissionError).requiredPermissions).toContain(permission);
      expect(error.message).not.toContain("Check the API key and secret");
    }
  });

  it("400 `No user found with ...` (1.15's get_attributes and get_login), `Missing or invalid user` (its update_user_attributes): the user does not exist", () => {
    for (const [operation, errorMessage] of [
      ["get_attributes", "No user found with name/id: (00000000000000000000000000000001)"],
      ["get_login", "No user found with id: (00000000000000000000000000000001)"],
      ["update_user_attributes", "Missing or invalid user"],
    ] as const)
      expect(errorForStatus({ operation, status: 400, errorMessage })).toBeInstanceOf(KasmUnknownUserError);
  });

  it("401 `Unauthorized Action.` (1.15's check of a casting config's groups): permission, naming Groups Modify, not the credentials", () => {
    const error = errorForStatus({ operation: "update_cast_config", status: 401, errorMessage: "Unauthorized Action.", context: { changesCastGroup: true } });
    expect(error).toBeInstanceOf(KasmPermissionError);
    expect((error as KasmPermissionError).requiredPermissions).toEqual(["Casting Modify", "Groups Modify"]);
    expect(error.message).toContain("Groups Modify System when it changes the config's group, and one of the two is a system group");
    expect(error.message).not.toContain("Check the API key and secret");
  });

  it("403 from a Read Only key", async () => {
    const client = clientWith(KEYS.readOnly);
    const error = await failure(client.users.createUser({ username: "ro" }));
    await client.close();
    expect(error).toBeInstanceOf(KasmPermissionError);
    expect(error.message).toContain("Read Only setting is refused every write operation");
  });

  it("403: permission, when Kasm says nothing the spec lists (a proxy's page, say)", async () => {
    const server = await startLocalServer();
    const client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: ADMIN_SECRET, maxRetries: 0 }, {});
    try {
      server.script("get_images", { status: 403, raw: "<html>Forbidden</html>" });
      const error = await failure(client.images.getImages());
      expect(error).toBeInstanceOf(KasmPermissionError);
      expect(error.message).toContain("HTTP 403 with no message");
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("400: bad request, with the server's message", async () => {
    const error = await failure(h.client.users.createUser({ username: "alice" }));
    expect(error).toBeInstanceOf(KasmBadRequestError);
    expect(error).toMatchObject({ kind: "bad_request", status: 400, errorMessage: "Error creating user (alice): (User already exists)" });
  });

  it("400 from a batch import lists the problems of the CSV validation report", async () => {
    const error = await failure(h.client.users.batchCreateUser({ csv: "username,realm,group_1\nxavier,bogus,Nope\n" }));
    expect(error).toBeInstanceOf(KasmBadRequestError);
    expect(error.errorMessage).toBe("Failed to import CSV file data");
    expect((error as KasmBadRequestError).validationErrors).toEqual([
      expect.stringMatching(/^row 1, realm: CSV_ERROR_009 /),
      expect.stringMatching(/^row 1, group_1: CSV_ERROR_011 /),
    ]);
    expect(error.message).toContain("row 1, realm: CSV_ERROR_009");
  });

  it("not found, from Kasm's 400 answers about unknown objects", async () => {
    const error = await failure(h.client.users.updateUser({ user_id: "c".repeat(32), username: "nobody" }));
    expect(error).toBeInstanceOf(KasmNotFoundError);
    expect(error).toBeInstanceOf(KasmBadRequestError);
    expect(error).toMatchObject({ kind: "not_found", status: 400 });
    await expect(h.client.staging.getStagingConfig({ staging_config_id: "d".repeat(32) })).rejects.toBeInstanceOf(KasmNotFoundError);
  });

  // Kasm has no 404 for an unknown object (it answers 400 with a message): a 404 is an address
  // that is not Kasm's API, or a release without the operation, never an object that is gone.
  it("404 for an operation both vocabularies name alike: a path nothing answers, naming the address setting, never not found", async () => {
    const server = await startLocalServer();
    const client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: ADMIN_SECRET, maxRetries: 0 }, {});
    try {
      server.fallback = () => ({ status: 404, raw: "<html>Not Found</html>" });
      const error = await failure(client.users.getUser({ user_id: "c".repeat(32) }));
      expect(error).toBeInstanceOf(KasmUnknownPathError);
      expect(error).not.toBeInstanceOf(KasmNotFoundError);
      expect(error).toMatchObject({ kind: "unknown_path", status: 404, operation: "get_user" });
      expect(error.message).toMatch(
        /^get_user: the installation answered HTTP 404 with no message for the operation get_user: nothing at the configured address answers it/,
      );
      expect(error.message).toContain("Check kasm:baseUrl (or KASM_BASE_URL)");
      await expect(client.servers.setDrainServer({ server_id: "d".repeat(32), is_draining: true })).rejects.toBeInstanceOf(KasmUnknownPathError);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("transport: nothing listening", async () => {
    const client = createKasmClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", apiKeySecret: ADMIN_SECRET, maxRetries: 0 }, {});
    const error = await failure(client.images.getImages());
    await client.close();
    expect(error).toBeInstanceOf(KasmTransportError);
    expect(error).toMatchObject({ kind: "transport", code: "ECONNREFUSED", attempts: 1 });
    // The cause is a plain copy: name, code, message; nothing else of the original.
    const cause = error.cause as Error & { code: string };
    expect(cause.code).toBe("ECONNREFUSED");
    expect(Object.keys(cause)).toEqual(["code"]);
  });

  it("timeout: the server answers later than the request timeout", async () => {
    await h.control("POST", "/__emulator/faults", { rate: 1, kinds: ["latency"], latencyMs: 3000, operations: ["get_zones"], seed: 1 });
    const client = clientWith(KEYS.admin, { requestTimeoutMs: 300 });
    try {
      const error = await failure(client.zones.getZones());
      expect(error).toBeInstanceOf(KasmTimeoutError);
      expect(error).toMatchObject({ kind: "timeout", code: "UND_ERR_HEADERS_TIMEOUT" });
    } finally {
      await client.close();
      await h.control("DELETE", "/__emulator/faults");
    }
  });

  it("response shape: names the operation and the offending path, never the value", async () => {
    const server = await startLocalServer();
    const client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: ADMIN_SECRET }, {});
    try {
      server.script("get_user", { status: 200, body: { user: { user_id: 42, username: "x", groups: [{ name: "G", group_id: "not-an-id-SECRETISH" }] } } });
      const error = await failure(client.users.getUser({ username: "x" }));
      expect(error).toBeInstanceOf(KasmResponseShapeError);
      expect((error as KasmResponseShapeError).issues.map((i) => i.path)).toEqual(["user.user_id", "user.groups[0].group_id"]);
      expect(error.message).toMatch(/^get_user: unexpected response from the server: user\.user_id: /);
      expect(printed(error)).not.toContain("SECRETISH");

      server.script("get_images", { status: 200, raw: "<html>proxy</html>" });
      expect((await failure(client.images.getImages())).message).toBe("get_images: unexpected response from the server: (body): the body is not JSON");
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** A permission name of the catalogue, as a permission error would name it (`Users Create`). */
const PERMISSION_NAME = /\b(Users|Sessions|Licenses|Groups) (View|Modify|Create|Delete|Auth Session)\b/;

describe("a refusal a caller acts on is its own class, decided where the answer is read", () => {
  const byName = (list: Record<string, any>, key: string, value: string) => Object.values<any>(list).find((o) => o[key] === value);

  it("from the emulator: already a member, not a member, not assigned, already exists, sessions running, unknown user", async () => {
    const state = await h.state();
    const bob = byName(state.users, "username", "bob");
    const alice = byName(state.users, "username", "alice");
    const engineering = byName(state.groups, "name", "Engineering");
    const finance = byName(state.groups, "name", "Finance");
    const server = byName(state.servers, "hostname", "ws2.example.org");
    const cases: [Promise<unknown>, new (...args: never[]) => KasmApiError][] = [
      [h.client.groups.addUserGroup({ user_id: bob.user_id, group_id: engineering.group_id }), KasmAlreadyMemberError],
      [h.client.groups.removeUserGroup({ user_id: alice.user_id, group_id: finance.group_id }), KasmNotMemberError],
      [h.client.users.unassignUserServer({ user_id: alice.user_id, server_id: server.server_id }), KasmNotAssignedError],
      [h.client.users.createUser({ username: "bob", password: "another long password 1" }), KasmAlreadyExistsError],
      [h.client.users.deleteUser({ user_id: bob.user_id }), KasmForceRequiredError],
      [h.client.groups.addUserGroup({ user_id: "f".repeat(32), group_id: engineering.group_id }), KasmUnknownUserError],
    ];
    for (const [call, type] of cases) {
      const error = await failure(call);
      expect(error, `${error.operation}: ${error.errorMessage}`).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(KasmBadRequestError);
    }
    // Nothing changed: bob is still there, with his session.
    expect(byName((await h.state()).users, "username", "bob")).toBeDefined();
  });

  it("from the released product's texts (answered with HTTP 200 and an error_message by 1.15)", () => {
    expect(
      errorForStatus({ operation: "delete_group", status: 200, errorMessage: "Group contains (3) users and 'force' option not set to True" }),
    ).toBeInstanceOf(KasmForceRequiredError);
    expect(errorForStatus({ operation: "create_group", status: 200, errorMessage: "Group (Kiosks) already exists" })).toBeInstanceOf(KasmAlreadyExistsError);
    expect(errorForStatus({ operation: "get_cast_config", status: 400, errorMessage: "Unknown cast config (abc)" })).toBeInstanceOf(KasmUnknownCastConfigError);
    // A text that means none of these stays a plain refusal.
    const plain = errorForStatus({ operation: "create_user", status: 400, errorMessage: "Password does not meet the requirements" });
    expect(plain.constructor).toBe(KasmBadRequestError);
  });
});

describe("the text of a 403 decides its class", () => {
  // Every 403 text of the spec's error table and of the product's observed behaviour.
  const cases = [
    { text: "Unauthorized.", operation: "create_user", kind: "permission", type: KasmPermissionError, says: /The API key needs all of: Users Create/ },
    {
      text: "License limit exceeded. Unable to create user",
      operation: "create_user",
      kind: "license",
      type: KasmLicenseLimitError,
      says: /named-user seats are all used.*Activate more seats.*delete users/s,
    },
    {
      text: "License limit exceeded. Unable to create session",
      operation: "request_ws",
      kind: "license",
      type: KasmLicenseLimitError,
      says: /concurrent sessions are all in use.*End sessions.*activate more seats/s,
    },
    // Releases before 1.19.0 answered some credential failures with 403.
    {
      text: "Invalid user name or password.",
      operation: "create_user",
      kind: "authentication",
      type: KasmAuthenticationError,
      says: /Check the API key and secret/,
    },
  ] as const;

  for (const c of cases) {
    it(`403 ${JSON.stringify(c.text)}: ${c.kind}`, async () => {
      const server = await startLocalServer();
      const client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: ADMIN_SECRET, maxRetries: 2, retryBaseDelayMs: 1 }, {});
      try {
        server.fallback = () => ({ status: 403, body: { error_message: c.text } });
        const call =
          c.operation === "request_ws"
            ? client.sessions.requestWs({ user_id: "a".repeat(32), image_id: "b".repeat(32) })
            : client.users.createUser({ username: "x", password: "pw-in-403-body-31" });
        const error = await failure(call);
        expect(error).toBeInstanceOf(c.type);
        expect(error).toMatchObject({ kind: c.kind, status: 403, operation: c.operation, errorMessage: c.text, attempts: 1 });
        expect(error.message).toMatch(c.says);
        expect(error.message).toContain(`HTTP 403 ${JSON.stringify(c.text)}`);
        if (c.kind !== "permission") {
          expect(error).not.toBeInstanceOf(KasmPermissionError);
          expect(error.message).not.toMatch(PERMISSION_NAME);
        }
        expect(printed(error)).not.toContain("pw-in-403-body-31");
        expect(server.requests).toHaveLength(1);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }

  it("the emulator's named-user limit: a license error naming seats, with no permission advice", async () => {
    const named = "-----BEGIN ACTIVATION KEY-----\nNAMED-USER-KEY-52\n-----END ACTIVATION KEY-----";
    // Alice and bob exist; a 3-seat Per Named User license leaves one seat.
    const harness = await startHarness({ seed: { ...SEED, activationKeys: [{ activation_key: named, seats: 3, license_type: "Per Named User" }] } });
    try {
      await harness.client.licenses.activate({ activation_key: named });
      await harness.client.users.createUser({ username: "carol" });
      const error = await failure(harness.client.users.createUser({ username: "dave" }));
      expect(error).toBeInstanceOf(KasmLicenseLimitError);
      expect(error).toMatchObject({ kind: "license", limited: "user", status: 403, errorMessage: "License limit exceeded. Unable to create user" });
      expect(error.message).toMatch(/license's named-user seats/);
      expect(error.message).not.toMatch(PERMISSION_NAME);
      expect(error.message).not.toMatch(/grant/i);
    } finally {
      await harness.close();
    }
  });

  it("the emulator's concurrent-session limit: a license error about sessions", async () => {
    // No license: the Community Edition's 5 concurrent sessions.
    const harness = await startHarness({ seed: { ...SEED, sessions: [], activationKeys: [] } });
    try {
      const user = await harness.client.users.getUser({ username: "bob" });
      const image = (await harness.client.images.getImages()).find((i) => i.name === "kasmweb/chrome:1.16.0")!;
      for (let i = 0; i < 5; i++) await harness.client.sessions.requestWs({ user_id: user.user_id, image_id: image.image_id });
      const error = await failure(harness.client.sessions.requestWs({ user_id: user.user_id, image_id: image.image_id }));
      expect(error).toBeInstanceOf(KasmLicenseLimitError);
      expect(error).toMatchObject({ kind: "license", limited: "session", status: 403 });
      expect(error.message).toMatch(/concurrent sessions/);
      expect(error.message).not.toMatch(PERMISSION_NAME);
    } finally {
      await harness.close();
    }
  });
});

describe("secrets", () => {
  it("never appear in errors or log lines of calls that carried them", async () => {
    const logger = captureLogger();
    const client = clientWith(KEYS.admin, { logger, maxRetries: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
    const password = "pw-Secret-Kd92!";
    const wgKey = "wg-PRIVATE-key-0Zx9==";
    const meshKey = "mesh-KEY-77aa";
    const errors: unknown[] = [];
    const collect = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => errors.push(e),
      );
    try {
      // Make every call fail after retries, so that errors and retry log lines are produced.
      await h.control("POST", "/__emulator/faults", { rate: 1, kinds: ["500", "503", "reset"], seed: 3 });
      await collect(client.users.createUser({ username: "zed", password }));
      await collect(client.licenses.activate({ activation_key: ACTIVATION_KEY, seats: 1 }));
      await h.control("DELETE", "/__emulator/faults");
      // Refused by the server: duplicates and an unknown activation key.
      const provider = await client.egress.createEgressProvider({ name: "wg", egress_provider_type: "wireguard", enabled: true });
      const bob = await client.users.getUser({ username: "bob" });
      const credential = {
        egress_provider_id: provider.egress_provider_id,
        name: "c",
        user_id: bob.user_id,
        enabled: true,
        allow_all_gateways: true,
        wireguard_private_key: wgKey,
        mesh_key: meshKey,
      };
      await client.egress.createEgressCredential(credential);
      await collect(client.egress.createEgressCredential(credential));
      await collect(client.licenses.activate({ activation_key: "-----BEGIN ACTIVATION KEY-----\nUNKNOWN-KEY-991\n-----END ACTIVATION KEY-----" }));
      await collect(client.users.createUser({ username: "alice", password }));
    } finally {
      await client.close();
      await h.control("DELETE", "/__emulator/faults");
    }
    expect(errors).toHaveLength(5);
    expect(logger.lines.length).toBeGreaterThan(0);
    const everything = [...errors.map(printed), ...logger.lines].join("\n");
    for (const secret of [ADMIN_SECRET, password, wgKey, meshKey, "TEST-PARTNER-KEY-77", "UNKNOWN-KEY-991"]) expect(everything).not.toContain(secret);
  });

  it("are scrubbed from a server message that echoes them", async () => {
    const server = await startLocalServer();
    const client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: ADMIN_SECRET, maxRetries: 0 }, {});
    try {
      // A server that puts the whole request body into its error message.
      server.fallback = (req) => ({ status: 400, body: { error_message: `bad request: ${req.body}` } });
      const error = await failure(
        client.egress.createEgressGateway({
          egress_provider_id: "e".repeat(32),
          name: "gw",
          config: "[Interface]\nPrivateKey = gw-PRIVATE-Qq1=\nAddress = 10.0.0.2/32",
        }),
      );
      expect(error.errorMessage).toContain("bad request:");
      expect(error.errorMessage).toContain(REDACTED);
      expect(printed(error)).not.toContain(ADMIN_SECRET);
      expect(printed(error)).not.toContain("gw-PRIVATE-Qq1=");
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("are redacted by field name when structures are serialised", () => {
    const value = {
      api_key: "visible-key",
      api_key_secret: "s1-secret",
      target_user: { username: "u", password: "s2-secret" },
      servers: [{ connection_password: "s3-secret", connection_private_key: "s4-secret", hostname: "h" }],
      zone: { cloud_secret_access_key: "s5-secret" },
      headers: { "api-key-secret": "s6-secret" },
      activation_key: "s7-secret",
      credential: { wireguard_private_key: "s8-secret", mesh_key: "s9-secret" },
    };
    const text = JSON.stringify(redact(value));
    for (let i = 1; i <= 9; i++) expect(text).not.toContain(`s${i}-secret`);
    expect(text).toContain("visible-key");
    expect(scrubText("key: -----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY----- end")).toBe(`key: ${REDACTED} end`);
  });
});

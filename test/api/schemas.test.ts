/**
 * The product's serialisation quirks, absorbed by the response schemas: ids with or without
 * hyphens, the string "None" for null, numbers and booleans sent as strings, unknown fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Id, NewUser, Session, StagingConfig, User, createKasmClient, normaliseId, sameId, type KasmClient } from "../../provider/api";
import { startLocalServer, type LocalServer } from "./local-server";

describe("quirk normalisation", () => {
  it("normalises ids to 32 lowercase hex characters", () => {
    expect(normaliseId("6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4")).toBe("6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4");
    expect(normaliseId("6E1A5C0C1F4B4F6A9F5235E1C0A2B3D4")).toBe("6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4");
    expect(normaliseId("not-an-id")).toBe("not-an-id");
    expect(sameId("6e1a5c0c-1f4b-4f6a-9f52-35e1c0a2b3d4", "6E1A5C0C1F4B4F6A9F5235E1C0A2B3D4")).toBe(true);
    expect(Id.safeParse("short").success).toBe(false);
  });

  it("reads a user record with hyphenated ids, 'None' for null, strings for booleans, and extra fields", () => {
    const user = User.parse({
      user_id: "6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4",
      username: "amy",
      last_session: "None",
      locked: "false",
      groups: [{ name: "All Users", group_id: "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE" }],
      some_field_of_a_later_release: 1,
    });
    expect(user).toEqual({
      user_id: "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4",
      username: "amy",
      last_session: null,
      locked: false,
      groups: [{ name: "All Users", group_id: "aaaaaaaabbbbccccddddeeeeeeeeeeee" }],
    });
  });

  // The 1.15 API server writes a session's server as nulls when it has none (get_users), and a
  // session nobody holds yet with an empty user (get_servers).
  it("reads a session with no server and no user", () => {
    const session = Session.parse({
      ws_id: "4".repeat(32),
      server: { server_id: null, hostname: null, port: "None" },
      user: { username: "", user_id: "" },
    });
    expect(session).toEqual({ ws_id: "4".repeat(32), server: { server_id: null, hostname: null, port: null }, user: { username: "", user_id: null } });
  });

  it("reads numbers sent as strings", () => {
    const config = StagingConfig.parse({
      staging_config_id: "1".repeat(32),
      zone_id: "2".repeat(32),
      image_id: "3".repeat(32),
      num_sessions: "3",
      expiration: "2.5",
      num_current_sessions: "None",
    });
    expect(config).toMatchObject({ num_sessions: 3, expiration: 2.5, num_current_sessions: null });
  });

  it("derives request types from the record schemas", () => {
    expect(NewUser.safeParse({ username: "x", password: "p" }).success).toBe(true);
    expect(NewUser.safeParse({ first_name: "x" }).success).toBe(false);
  });
});

describe("over HTTP", () => {
  let server: LocalServer;
  let client: KasmClient;
  beforeAll(async () => {
    server = await startLocalServer();
    client = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: "secret-Qa1" }, {});
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("normalises a get_users answer with hyphenated user ids and 'None' timestamps", async () => {
    server.script("get_users", {
      status: 200,
      body: {
        users: [{ user_id: "6e1a5c0c-1f4b-4f6a-9f52-35e1c0a2b3d4", username: "amy", last_session: "None", created: "2020-11-12 14:29:25.808258" }],
        total: "1",
      },
    });
    const page = await client.users.getUsers();
    expect(page).toEqual({
      users: [{ user_id: "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4", username: "amy", last_session: null, created: "2020-11-12 14:29:25.808258" }],
      total: 1,
    });
  });

  it("sends the JSON envelope with body credentials, and GET with a body for egress reads", async () => {
    server.script("get_egress_gateways", { status: 200, body: { egress_gateways: [] } });
    await client.egress.getEgressGateways({ name: "x" });
    const request = server.requests.at(-1)!;
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/api/public/get_egress_gateways");
    expect(request.json).toEqual({ target_egress_gateway: { name: "x" }, api_key: "k", api_key_secret: "secret-Qa1" });
  });

  it("sends batch imports as multipart with header credentials, the CSV in file_content and the view in the query", async () => {
    server.script("batch_create_user", { status: 200, body: { error_message: null, csv_validation_data: null, resources: { users: [] } } });
    await client.users.batchCreateUser({ csv: "username\nzoe\n" });
    const request = server.requests.at(-1)!;
    expect(request.headers["api-key"]).toBe("k");
    expect(request.headers["api-key-secret"]).toBe("secret-Qa1");
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body).toContain('name="file_content"; filename="import.csv"');
    expect(request.body).toContain("username\nzoe\n");
    expect(request.body).not.toContain("api_key_secret");
  });
});

/**
 * ServerImport through Pulumi's real dynamic-provider host against the emulator over HTTP. The
 * Kasm API creates servers only in bulk and can neither update nor delete them: check refuses bad
 * rows before any request, a changed row imports a new server and warns about the old one, a
 * removed row and destroy only forget (with a warning naming the servers), refresh sees drift and
 * drops servers removed out of band, a refused import creates nothing and lists every problem, and
 * the ids in `serverIds` work for UserServerAssignment, ServerDrain and getServer.
 *
 * The emulator's store is held here (as the emulator serves it) so that a test can change a server
 * the way an administrator would in the Kasm UI, which the API cannot do.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../../emulator/server";
import { TEST_API_NAMES } from "../helpers/vocabulary";
import { storeFromSeed } from "../../emulator/seed";
import type { Store } from "../../emulator/store";
import { OPERATIONS, type OperationName } from "../../permissions";
import * as kasm from "../../sdk";
import { ADMIN, hyphenated, seedWithAdmin } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

/**
 * What one import sends: the import, after the listing of every server with a released Kasm's
 * operations, which tells the import's servers from others should its answer be lost.
 */
const AN_IMPORT = TEST_API_NAMES === "product" ? ["get_servers", "batch_create_server"] : ["batch_create_server"];

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const POOL_ID = "9a7b6c5d4e3f4a2b8c1d0e9f8a7b6c5d";
/** Everything a ServerImport needs but Servers Create. */
const NO_CREATE = { key: "servers-no-create", secret: "servers-no-create-secret-41d2" };
/** Servers Create and Users Modify, but not Users Modify Admin. */
const NO_ADMIN = { key: "servers-no-admin", secret: "servers-no-admin-secret-8e0c" };

let store: Store;
let server: http.Server;
let url: string;
let host: ProviderHost;
/** One line per API request served. */
const requests: string[] = [];

beforeAll(async () => {
  const reads = ["Servers View", "Server Pools View", "Zones View", "Users View"] as const;
  store = storeFromSeed(
    seedWithAdmin({
      apiKeys: [
        { name: "no-create", key: NO_CREATE.key, secret: NO_CREATE.secret, permissions: [...reads, "Users Modify"] },
        { name: "no-admin", key: NO_ADMIN.key, secret: NO_ADMIN.secret, permissions: [...reads, "Servers Create", "Users Modify"] },
      ],
      zones: [{ zone_name: "default" }, { zone_name: "eu" }],
      serverPools: [{ server_pool_id: POOL_ID, server_pool_name: "Pool A" }],
      users: [{ username: "alice" }, { username: "bob" }, { username: "root", groups: ["Administrators"] }],
    }),
  );
  server = http.createServer(createApp(store, { log: (line) => requests.push(line), apiNames: TEST_API_NAMES }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  host = await hostFor({ url } as never);
});
afterAll(async () => {
  await host?.stop();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** Call an operation over HTTP with the admin key. */
async function call(operation: OperationName, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const spec = OPERATIONS[operation];
  const res = await fetch(`${url}${spec.path}`, {
    method: spec.method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: ADMIN.key, api_key_secret: ADMIN.secret, ...body }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The server with this id as get_servers answers, or undefined. */
async function kasmServer(id: string): Promise<any> {
  const res = await call("get_servers", { target_server: { server_id: id } });
  // A released Kasm answers with a list, even for one id.
  return res.status === 200 ? (res.body.server ?? res.body.servers?.[0]) : undefined;
}

/** Servers the emulator holds with this name. */
function serversNamed(name: string) {
  return Object.values(store.state.servers).filter((s) => s.friendly_name === name);
}

/** Operations requested since `from` (an index into `requests`). */
function operationsSince(from: number): string[] {
  return requests.slice(from).map((line) => line.split(" ")[0]);
}

/** What the host printed on stderr since `from` characters, once `pattern` has arrived (it comes through a pipe). */
async function stderrSince(from: number, pattern: RegExp): Promise<string> {
  let text = "";
  await vi.waitFor(
    () => {
      text = host.stderr.join("").slice(from);
      expect(text).toMatch(pattern);
    },
    { timeout: 10_000 },
  );
  return text;
}

const ws = (n: number, extra: Record<string, unknown> = {}) => ({
  name: `ws-${n}`,
  ipHostname: `10.0.4.${n}`,
  port: 22,
  zoneName: "default",
  connectionType: "SSH",
  ...extra,
});

/** The inputs without the serialized provider. */
function inputsOf(result: { inputs?: Record<string, unknown> }): Record<string, unknown> {
  const { __provider: _provider, ...inputs } = result.inputs ?? {};
  return inputs;
}

describe("ServerImport", () => {
  it("check refuses bad rows, naming row and column, before any request", async () => {
    const resource = new Driven(host, "ServerImport", "bad");
    const before = requests.length;

    expect((await resource.check({})).failures).toEqual([{ property: "(inputs)", reason: expect.stringMatching(/exactly one of csv .* or servers/) }]);
    expect((await resource.check({ csv: "name,ip_hostname\na,b\n", servers: [ws(1)] })).failures.map((f) => f.property)).toEqual(["(inputs)"]);
    expect((await resource.check({ servers: [] })).failures).toEqual([{ property: "servers", reason: "servers must list at least one server" }]);

    const rows = await resource.check({
      servers: [
        { port: 22 },
        ws(2, { port: 70000, useUserPrivateKey: "yes" }),
        ws(3, { connectionCredentialType: "prompt_user", poolId: "pool-a", labels: ["gpu;fast"] }),
        ws(2, { port: 22.5, hostname: "x" }),
      ],
    });
    expect(rows.failures).toEqual([
      { property: "servers[0].name", reason: "row 1: name is required" },
      { property: "servers[0].ipHostname", reason: "row 1: ipHostname is required" },
      { property: "servers[1].port", reason: "row 2 'ws-2': port must be a whole number from 1 to 65535" },
      { property: "servers[1].useUserPrivateKey", reason: "row 2 'ws-2': useUserPrivateKey must be true or false" },
      { property: "servers[2].poolId", reason: "row 3 'ws-3': poolId must be a Kasm id: 32 hexadecimal digits, or a hyphenated UUID" },
      { property: "servers[2].labels", reason: expect.stringMatching(/^row 3 'ws-3': labels a label must not contain ';' or ','/) },
      {
        property: "servers[2].connectionCredentialType",
        reason: expect.stringMatching(/^row 3 'ws-3': connectionCredentialType PROMPT_USER cannot be used with an SSH connection .*CSV_ERROR_012/),
      },
      { property: "servers[3]", reason: expect.stringMatching(/^row 4 'ws-2': hostname is not a field of a server row/) },
      { property: "servers[3].port", reason: "row 4 'ws-2': port must be a whole number from 1 to 65535" },
      { property: "servers[3].name", reason: "row 4 'ws-2': name 'ws-2' is also the name of row 2: names must be unique within the set" },
    ]);

    const csv = await resource.check({
      csv: "name,ip_hostname,port,connection_type,connection_credential_type,use_user_private_key\nws-1,10.0.0.1,abc,SSH,STATIC,maybe\nws-2,,22,ssh,PROMPT_USER,\nws-1,10.0.0.3,22,RDP,,\n",
    });
    expect(csv.failures).toEqual([
      { property: "csv", reason: "row 1 (line 2) 'ws-1', column port: must be a whole number from 1 to 65535" },
      { property: "csv", reason: "row 1 (line 2) 'ws-1', column use_user_private_key: must be true or false (or yes/no, 1/0)" },
      { property: "csv", reason: "row 2 (line 3) 'ws-2', column ip_hostname: is required" },
      {
        property: "csv",
        reason: expect.stringMatching(/^row 2 \(line 3\) 'ws-2', column connection_credential_type: PROMPT_USER cannot be used with an SSH connection/),
      },
      { property: "csv", reason: "row 3 (line 4) 'ws-1', column name: 'ws-1' is also the name of row 1: names must be unique within the set" },
    ]);
    expect((await resource.check({ csv: "name,hostname,port\nws-1,10.0.0.1,22\n" })).failures).toEqual([
      { property: "csv", reason: expect.stringMatching(/^csv has unknown column\(s\) 'hostname'; the columns are name, ip_hostname, port/) },
      { property: "csv", reason: "csv has no 'ip_hostname' column, which every server needs" },
    ]);
    expect((await resource.check({ csv: 'name,ip_hostname\n"ws-1,10.0.0.1\n' })).failures[0].reason).toMatch(/^csv is not valid CSV: /);
    expect((await resource.check({ servers: [ws(1)], zone: "eu" })).failures).toEqual([
      { property: "zone", reason: "zone is not an input of ServerImport (its inputs: csv or servers)" },
    ]);

    // During preview, values not known yet are checked once they are.
    expect((await resource.check({ servers: UNKNOWN })).failures).toEqual([]);
    expect((await resource.check({ servers: [ws(1, { assignedUsername: UNKNOWN, poolId: UNKNOWN }), UNKNOWN] })).failures).toEqual([]);
    expect((await resource.check({ csv: UNKNOWN })).failures).toEqual([]);
    expect(requests.length).toBe(before);
  });

  it("creates the servers in one import, plans no change for the same rows, and imports added rows", async () => {
    const lab = new Driven(host, "ServerImport", "lab");
    const servers = [
      ws(11, { useUserPrivateKey: true, poolId: POOL_ID, assignedUsername: "alice", labels: ["linux", "gpu"] }),
      ws(12, { port: 3389, connectionType: "RDP", connectionCredentialType: "STATIC", zoneName: "eu" }),
    ];
    const before = requests.length;
    const state = await lab.create({ servers });
    expect(operationsSince(before)).toEqual(AN_IMPORT);
    expect(lab.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(state.serverIds as object)).toEqual(["ws-11", "ws-12"]);
    const ids = state.serverIds as Record<string, string>;
    expect(await kasmServer(ids["ws-11"])).toMatchObject({
      friendly_name: "ws-11",
      hostname: "10.0.4.11",
      connection_port: 22,
      connection_type: "SSH",
      use_user_private_key: true,
      zone_name: "default",
      server_pool_id: POOL_ID,
      labels: ["linux", "gpu"],
      assigned_users: [{ username: "alice" }].map((u) => expect.objectContaining(u)),
    });
    expect(await kasmServer(ids["ws-12"])).toMatchObject({ connection_port: 3389, connection_type: "RDP", zone_name: "eu" });

    // A second up: no change, whatever the spelling of ids, case of names and order of labels.
    expect(await lab.diff({ servers })).toMatchObject({ changes: "none", replaces: [] });
    const respelt = [
      { ...servers[0], poolId: hyphenated(POOL_ID).toUpperCase(), assignedUsername: "ALICE", labels: ["gpu", "linux"], ipHostname: " 10.0.4.11 " },
      { ...servers[1], connectionType: "rdp" },
    ];
    expect(await lab.diff({ servers: respelt })).toMatchObject({ changes: "none" });
    // Refresh: nothing drifted, so nothing changes and the inputs come back as declared.
    const refreshed = await lab.read();
    expect(refreshed.id).toBe(lab.id);
    expect(inputsOf(refreshed)).toEqual({ servers });
    expect(refreshed.properties.serverIds).toEqual(ids);

    // An added row: one import of that row only, no replacement, no warning.
    const added = [...servers, ws(13)];
    expect(await lab.diff({ servers: added })).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
    const stderrBefore = host.stderr.join("").length;
    const beforeUpdate = requests.length;
    const next = await lab.update({ servers: added });
    expect(operationsSince(beforeUpdate)).toEqual(AN_IMPORT);
    expect(next.serverIds).toMatchObject({ ...ids, "ws-13": expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(serversNamed("ws-11")).toHaveLength(1);
    expect(host.stderr.join("").slice(stderrBefore)).not.toMatch(/ServerImport/);
  });

  it("a changed row imports a new server and warns that the old one stays; a removed row is forgotten with a warning", async () => {
    const set = new Driven(host, "ServerImport", "changing");
    const servers = [ws(21), ws(22), ws(23, { labels: ["a"] })];
    await set.create({ servers });
    const ids = { ...(set.state.serverIds as Record<string, string>) };

    const changed = [ws(21, { port: 2222 }), ws(22)];
    expect(await set.diff({ servers: changed })).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
    const stderrBefore = host.stderr.join("").length;
    const before = requests.length;
    const next = await set.update({ servers: changed });
    expect(operationsSince(before)).toEqual(AN_IMPORT);
    const newIds = next.serverIds as Record<string, string>;
    expect(Object.keys(newIds)).toEqual(["ws-21", "ws-22"]);
    expect(newIds["ws-21"]).not.toBe(ids["ws-21"]);
    expect(newIds["ws-22"]).toBe(ids["ws-22"]);
    // Both servers named ws-21 are in Kasm, and ws-23 too: the API cannot change or delete them.
    expect(
      serversNamed("ws-21")
        .map((s) => s.port)
        .sort(),
    ).toEqual([22, 2222]);
    expect(await kasmServer(ids["ws-23"])).toBeDefined();
    const warning = await stderrSince(stderrBefore, /ws-23/);
    expect(warning).toContain(`warning: ServerImport ${set.id}: the Kasm API can neither update nor delete servers`);
    expect(warning).toContain(`'ws-21' (${ids["ws-21"]}) is replaced by the new server 'ws-21' (${newIds["ws-21"]}) because port changed`);
    expect(warning).toContain(`'ws-23' (${ids["ws-23"]}) is no longer declared`);

    // A row that stops declaring a field changes nothing in Kasm: no request, no warning.
    const { port: _port, ...withoutPort } = ws(22);
    const forgot = [ws(21, { port: 2222 }), withoutPort];
    expect(await set.diff({ servers: forgot })).toMatchObject({ changes: "some", replaces: [] });
    const beforeForget = requests.length;
    const forgotten = await set.update({ servers: forgot });
    expect(requests.length).toBe(beforeForget);
    expect(forgotten.serverIds).toEqual(newIds);
  });

  it("refresh shows drift made in the Kasm UI, drops servers removed there, and the next update imports them again", async () => {
    const set = new Driven(host, "ServerImport", "drifting");
    const servers = [ws(31, { assignedUsername: "bob", labels: ["x"] }), ws(32), ws(33)];
    await set.create({ servers });
    const ids = { ...(set.state.serverIds as Record<string, string>) };

    // An administrator edits ws-31 (port, labels), unassigns bob, and deletes ws-32.
    store.state.servers[ids["ws-31"]].port = 2200;
    store.state.servers[ids["ws-31"]].labels = ["x", "y"];
    expect(
      (await call("unassign_user_server", { target_user: { user_id: store.users.userByName("bob")!.user_id }, target_server: { server_id: ids["ws-31"] } }))
        .status,
    ).toBe(204);
    delete store.state.servers[ids["ws-32"]];

    const before = requests.length;
    const refreshed = await set.read();
    expect(operationsSince(before)).toEqual(["get_servers", "get_servers", "get_servers"]);
    expect(refreshed.id).toBe(set.id);
    expect(inputsOf(refreshed)).toEqual({ servers: [ws(31, { assignedUsername: null, labels: ["x", "y"], port: 2200 }), ws(33)] });
    expect(refreshed.properties.serverIds).toEqual({ "ws-31": ids["ws-31"], "ws-33": ids["ws-33"] });

    // The program still declares all three: ws-31 is imported again (the edited one stays), ws-32 is imported again.
    expect(await set.diff({ servers })).toMatchObject({ changes: "some", replaces: [] });
    const stderrBefore = host.stderr.join("").length;
    const next = await set.update({ servers });
    const newIds = next.serverIds as Record<string, string>;
    expect(newIds["ws-33"]).toBe(ids["ws-33"]);
    expect(newIds["ws-31"]).not.toBe(ids["ws-31"]);
    expect(newIds["ws-32"]).not.toBe(ids["ws-32"]);
    expect(await kasmServer(newIds["ws-31"])).toMatchObject({
      connection_port: 22,
      labels: ["x"],
      assigned_users: [expect.objectContaining({ username: "bob" })],
    });
    const warning = await stderrSince(stderrBefore, /ws-31/);
    expect(warning).toMatch(/'ws-31' \([0-9a-f]{32}\) is replaced by the new server 'ws-31' \([0-9a-f]{32}\) because (port|assignedUsername|labels)/);
    expect(warning).not.toContain("ws-32");
    expect(await set.diff({ servers })).toMatchObject({ changes: "none" });

    // When every server is gone, refresh drops the resource.
    for (const id of Object.values(newIds)) delete store.state.servers[id];
    expect((await set.read()).id).toBe("");
  });

  it("takes Kasm's CSV: same rows, no change; drift re-renders it; destroy sends nothing and warns, naming every server", async () => {
    const csv = 'name,ip_hostname,port,zone_name,connection_type,labels\nws-41,10.0.4.41,22,default,SSH,a;b\n"ws 42, lab",10.0.4.42,3389,eu,RDP,\n';
    const set = new Driven(host, "ServerImport", "from-csv");
    const state = await set.create({ csv });
    const ids = state.serverIds as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual(["ws 42, lab", "ws-41"]);
    expect(await kasmServer(ids["ws 42, lab"])).toMatchObject({ friendly_name: "ws 42, lab", connection_type: "RDP", zone_name: "eu" });
    expect(await kasmServer(ids["ws-41"])).toMatchObject({ labels: ["a", "b"] });

    // The same rows written differently are no change; refresh keeps the text as declared.
    const respelt =
      'name, ip_hostname, port, zone_name, connection_type, labels\r\nws-41, 10.0.4.41, 22, default, ssh, b;a\r\n"ws 42, lab", 10.0.4.42, 3389, eu, RDP,\r\n';
    expect(await set.diff({ csv: respelt })).toMatchObject({ changes: "none" });
    expect(inputsOf(await set.read())).toEqual({ csv });

    // Drift: the CSV comes back re-rendered with Kasm's value, and differs from the program's.
    store.state.servers[ids["ws-41"]].hostname = "10.9.9.9";
    const drifted = inputsOf(await set.read());
    expect(drifted.csv).toContain("ws-41,10.9.9.9,22,default,SSH,a;b");
    expect(await set.diff({ csv })).toMatchObject({ changes: "some", replaces: [] });

    // Destroy: no request; the warning names every server, which all stay in Kasm.
    const stderrBefore = host.stderr.join("").length;
    const before = requests.length;
    await set.delete();
    expect(requests.length).toBe(before);
    const warning = await stderrSince(stderrBefore, /ws 42, lab/);
    expect(warning).toContain(`warning: ServerImport ${set.id}: the Kasm API cannot delete servers, so its 2 server(s) stay in Kasm`);
    expect(warning).toContain(`'ws-41' (${ids["ws-41"]}), 'ws 42, lab' (${ids["ws 42, lab"]})`);
    expect(await kasmServer(ids["ws-41"])).toBeDefined();
  });

  it("a refused import creates nothing and lists every problem with its row and code", async () => {
    const count = Object.keys(store.state.servers).length;
    const refused = new Driven(host, "ServerImport", "refused");
    const error = await refused
      .create({
        servers: [
          ws(51),
          ws(52, { zoneName: "nowhere" }),
          ws(53, { poolId: "0123456789abcdef0123456789abcdef", assignedUsername: "ghost" }),
          ws(54, { connectionType: "TELNET" }),
        ],
      })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/ServerImport: Kasm refused the import \(HTTP 400 'Failed to import CSV file data'\), so no server was created\. 4 problem\(s\)/);
    expect(message).toMatch(/servers\[1\] 'ws-52', column zone_name: CSV_ERROR_011 /);
    expect(message).toMatch(/servers\[2\] 'ws-53', column pool_id: CSV_ERROR_011 /);
    expect(message).toMatch(/servers\[2\] 'ws-53', column assigned_username: CSV_ERROR_011 /);
    expect(message).toMatch(/servers\[3\] 'ws-54', column connection_type: CSV_ERROR_009 /);
    expect(Object.keys(store.state.servers)).toHaveLength(count);

    // In an update, rows are named as the program declares them, and the state keeps its servers.
    const set = new Driven(host, "ServerImport", "refused-update");
    await set.create({ servers: [ws(55)] });
    const updateError = await set.update({ servers: [ws(55), ws(56), ws(57, { zoneName: "nowhere" })] }).catch((e: Error) => e);
    expect((updateError as Error).message).toMatch(/1 problem\(s\):\n {2}- servers\[2\] 'ws-57', column zone_name: CSV_ERROR_011/);
    expect(serversNamed("ws-56")).toEqual([]);
    expect(Object.keys(set.state.serverIds as object)).toEqual(["ws-55"]);
  });

  it("a key without the permissions is refused, naming what to grant, and nothing is created", async () => {
    const count = Object.keys(store.state.servers).length;
    const noCreate = await hostFor({ url } as never, NO_CREATE);
    const noAdmin = await hostFor({ url } as never, NO_ADMIN);
    try {
      const denied = await new Driven(noCreate, "ServerImport", "denied").create({ servers: [ws(61)] }).catch((e: Error) => e);
      expect((denied as Error).message).toMatch(/batch_create_server: the server at http:\/\/127\.0\.0\.1:\d+ refused the call \(HTTP 403 .*Servers Create/s);
      for (const text of [(denied as Error).message, noCreate.stderr.join("")]) expect(text).not.toContain(NO_CREATE.secret);

      // Plain users may be assigned with Users Modify; a user with Global Admin needs Users Modify Admin.
      const plain = new Driven(noAdmin, "ServerImport", "plain");
      await plain.create({ servers: [ws(62, { assignedUsername: "alice" })] });
      const admin = await new Driven(noAdmin, "ServerImport", "admin").create({ servers: [ws(63, { assignedUsername: "root" })] }).catch((e: Error) => e);
      expect((admin as Error).message).toMatch(/HTTP 403.*Users Modify Admin/s);
      expect(Object.keys(store.state.servers)).toHaveLength(count + 1);
      expect(serversNamed("ws-63")).toEqual([]);
    } finally {
      await noCreate.stop();
      await noAdmin.stop();
    }
  });

  it("its serverIds are ids UserServerAssignment, ServerDrain and getServer take", async () => {
    const set = new Driven(host, "ServerImport", "for-others");
    await set.create({ servers: [ws(71), ws(72)] });
    const ids = set.state.serverIds as Record<string, string>;
    const aliceId = store.users.userByName("alice")!.user_id;

    const assignment = new Driven(host, "UserServerAssignment", "alice-ws-71");
    await assignment.create({ userId: aliceId, serverId: ids["ws-71"] });
    expect((await kasmServer(ids["ws-71"])).assigned_users).toEqual([expect.objectContaining({ username: "alice" })]);

    const drain = new Driven(host, "ServerDrain", "ws-72");
    await drain.create({ serverId: ids["ws-72"], draining: true });
    expect(store.state.servers[ids["ws-72"]].is_draining).toBe(true);
    await drain.delete();
    expect(store.state.servers[ids["ws-72"]].is_draining).toBe(false);

    pulumi.runtime.setConfig("kasm:baseUrl", url);
    pulumi.runtime.setConfig("kasm:apiKey", ADMIN.key);
    pulumi.runtime.setConfig("kasm:apiKeySecret", ADMIN.secret);
    pulumi.runtime.setConfig("kasm:apiNames", TEST_API_NAMES);
    expect(await kasm.getServer({ serverId: ids["ws-71"] })).toMatchObject({ serverId: ids["ws-71"], friendlyName: "ws-71", hostname: "10.0.4.71" });
  });
});

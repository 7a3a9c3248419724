/**
 * EgressCredential through Pulumi's real dynamic-provider host against the emulator. The Kasm API
 * can create and read credentials but neither update nor delete them: every change replaces,
 * a replacement that keeps the name is refused by check (so preview fails) and by the create
 * with an error that says why, and delete leaves the credential in Kasm with a warning. Also:
 * check, diff, adoption by provider and name, refresh after drift and after deletion, secrets
 * Kasm masks or leaves null kept as declared, and the secrets kept out of errors and the host's
 * stderr.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const PASSWORD = "egress-pw-never-logged-3f9a";
const WG_KEY = "cGFzc3dvcmQtbmV2ZXItbG9nZ2VkLXdpcmVndWFyZA=";
const MESH_KEY = "mesh-key-never-logged-77c2";
const SECRETS = [PASSWORD, WG_KEY, MESH_KEY];
const USER_ID = "7c1e2d3f4a5b4c6d8e9f0a1b2c3d4e5f";
const GROUP_ID = "5a3f0c9e2b7d4e1f8a6c3b2d1e0f9a8b";
/** Everything for an egress credential but Egress Credentials Create. */
const NO_CREATE = { key: "cred-no-create", secret: "cred-no-create-secret-0b7e" };

let emulator: TestEmulator;
let host: ProviderHost;
let provider: string;
let otherProvider: string;
let g1: string;
let g2: string;
let g3: string;
let foreignGateway: string;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      {
        name: "no-create",
        key: NO_CREATE.key,
        secret: NO_CREATE.secret,
        permissions: ["Egress Providers View", "Egress Providers Modify", "Egress Credentials View", "Users View", "Users Modify"],
      },
    ],
    users: [{ user_id: USER_ID, username: "alice" }],
    groups: [{ group_id: GROUP_ID, name: "Engineering" }],
  });
  host = await hostFor(emulator);
  provider = await createProvider("Corp WireGuard");
  otherProvider = await createProvider("Partner WireGuard");
  g1 = await createGateway(provider, "Frankfurt");
  g2 = await createGateway(provider, "Amsterdam");
  g3 = await createGateway(provider, "Paris");
  foreignGateway = await createGateway(otherProvider, "Oslo");
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

async function createProvider(name: string, on: TestEmulator = emulator): Promise<string> {
  const res = await on.specCall("create_egress_provider", { target_egress_provider: { name, egress_provider_type: "wireguard" } });
  expect(res.status).toBe(200);
  return res.body.egress_provider.egress_provider_id;
}

async function createGateway(providerId: string, name: string, on: TestEmulator = emulator): Promise<string> {
  const res = await on.specCall("create_egress_gateway", { target_egress_gateway: { egress_provider_id: providerId, name } });
  expect(res.status).toBe(200);
  return res.body.egress_gateway.egress_gateway_id;
}

/** The credentials of the provider with this name, as Kasm returns them. */
async function credentialsNamed(name: string, providerId = provider) {
  const res = await emulator.specCall("get_egress_credentials", { target_egress_credential: { egress_provider_id: providerId, name } });
  return res.body.egress_credentials as any[];
}

function gatewayIds(record: { egress_gateways: { egress_gateway_id: string }[] }): string[] {
  return record.egress_gateways.map((g) => g.egress_gateway_id).sort();
}

/** `0123...` -> `01234567-89AB-...`: the same id, written the other way. */
function expectNoSecrets(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe("EgressCredential", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const credential = new Driven(host, "EgressCredential", "bad");
    const before = emulator.requests.length;

    const missing = await credential.check({ password: PASSWORD, allowAllGateways: true });
    expect(missing.failures.map((f) => f.property)).toEqual(["egressProviderId", "name", "(inputs)"]);
    expect(missing.failures[2].reason).toMatch(/exactly one of userId, groupId or imageId/);

    const several = await credential.check({ egressProviderId: provider, name: "x", userId: USER_ID, groupId: GROUP_ID, allowAllGateways: true });
    expect(several.failures.map((f) => f.property)).toEqual(["userId", "groupId"]);

    const limit = await credential.check({ egressProviderId: provider, name: "x", userId: USER_ID, selectedGateways: [g1], limitActiveConnections: true });
    expect(limit.failures).toEqual([{ property: "activeConnectionLimit", reason: expect.stringMatching(/positive.*limitActiveConnections/) }]);
    const zero = await credential.check({
      egressProviderId: provider,
      name: "x",
      userId: USER_ID,
      selectedGateways: [g1],
      limitActiveConnections: true,
      activeConnectionLimit: 0,
    });
    expect(zero.failures.map((f) => f.property)).toEqual(["activeConnectionLimit"]);

    const selection = await credential.check({ egressProviderId: provider, name: "x", userId: USER_ID, password: PASSWORD, wireguardPrivateKey: "" });
    // A secret input is named in the reason, not as the property: the CLI would print its value beside it.
    expect(selection.failures.map((f) => f.property).sort()).toEqual(["", "selectedGateways"]);
    expect(selection.failures.find((f) => f.property === "")!.reason).toMatch(/^wireguardPrivateKey /);
    expectNoSecrets(JSON.stringify([missing, several, limit, zero, selection].map((r) => r.failures)));
    expect(emulator.requests.length).toBe(before);
  });

  it("check judges cross-field rules only on what is known during preview", async () => {
    const credential = new Driven(host, "EgressCredential", "preview");
    const inputs = { egressProviderId: UNKNOWN, name: "x", groupId: UNKNOWN, selectedGateways: [UNKNOWN], password: UNKNOWN };
    expect((await credential.check(inputs)).failures).toEqual([]);
    expect((await credential.check({ ...inputs, limitActiveConnections: true, activeConnectionLimit: UNKNOWN })).failures).toEqual([]);
    expect((await credential.check({ ...inputs, limitActiveConnections: UNKNOWN, activeConnectionLimit: 0 })).failures).toEqual([]);
  });

  it("creates, plans no change for the same inputs, and replaces on any change (which needs a new name)", async () => {
    const first = new Driven(host, "EgressCredential", "alice-wg");
    const inputs = {
      egressProviderId: hyphenated(provider),
      name: "alice-wg-1",
      userId: USER_ID,
      username: "alice",
      password: PASSWORD,
      wireguardPrivateKey: WG_KEY,
      meshKey: MESH_KEY,
      enabled: true,
      selectedGateways: [g1, g2],
      limitActiveConnections: true,
      activeConnectionLimit: 2,
    };
    const state = await first.create(inputs);
    expect(first.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({ ...inputs, egressCredentialId: first.id, activeConnections: 0 });
    const [kasm] = await credentialsNamed("alice-wg-1");
    expect(kasm).toMatchObject({
      egress_credential_id: first.id,
      user_id: USER_ID,
      group_id: null,
      username: "alice",
      allow_all_gateways: false,
      limit_active_connections: true,
      active_connection_limit: 2,
    });
    expect(kasm.password).toMatch(/^\*+$/);
    expect(gatewayIds(kasm)).toEqual([g1, g2].sort());

    // A second up: no change, whatever the id spelling and the order of the selection.
    expect(await first.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await first.diff({ ...inputs, egressProviderId: provider, userId: hyphenated(USER_ID), selectedGateways: [g2, hyphenated(g1)] })).toMatchObject({
      changes: "none",
    });
    // Refresh: the masked password stays as declared; nothing drifted.
    const { __provider: _provider, ...refreshed } = (await first.read()).inputs ?? {};
    expect(refreshed).toEqual(inputs);
    expect(await first.diff(inputs)).toMatchObject({ changes: "none" });

    // Kasm cannot update a credential: a new password replaces it...
    const rotated = { ...inputs, password: `${PASSWORD}-2` };
    expect(await first.diff(rotated)).toEqual({ changes: "some", replaces: ["password"], deleteBeforeReplace: false });
    expect((await first.diff({ ...inputs, selectedGateways: [g1] })).replaces).toEqual(["selectedGateways"]);
    expect((await first.diff({ ...inputs, enabled: false })).replaces).toEqual(["enabled"]);
    // ...and the replacement is created before the old one is "deleted": with the same name it
    // clashes with the old credential, which Kasm cannot delete. The error says so.
    const sameName = new Driven(host, "EgressCredential", "alice-wg");
    const error = await sameName.create(rotated).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/'alice-wg-1' already exists.*can neither update nor delete egress credentials.*new `name`/s);
    expectNoSecrets((error as Error).message);
    expect(await credentialsNamed("alice-wg-1")).toHaveLength(1);

    // With a new name the replacement goes through; deleting the old one sends nothing and warns.
    const renamed = { ...rotated, name: "alice-wg-2" };
    expect((await first.diff(renamed)).replaces.sort()).toEqual(["name", "password"]);
    const second = new Driven(host, "EgressCredential", "alice-wg");
    await second.create(renamed);
    expect(second.id).not.toBe(first.id);
    const before = emulator.requests.length;
    const stderrBefore = host.stderr.join("").length;
    await first.delete();
    expect(emulator.requests.length).toBe(before);
    // The host's stderr arrives through a pipe, possibly after the answer to Delete: wait for it.
    await vi.waitFor(
      () => expect(host.stderr.join("").slice(stderrBefore)).toMatch(/EgressCredential 'alice-wg-1' \([0-9a-f]{32}\).*stays in Kasm.*cannot delete/s),
      { timeout: 10_000 },
    );
    expect(await credentialsNamed("alice-wg-1")).toHaveLength(1);
    expect(await credentialsNamed("alice-wg-2")).toHaveLength(1);

    // Forgetting an input replaces nothing and sends nothing.
    const { enabled: _enabled, ...forgotten } = renamed;
    expect(await second.diff(forgotten)).toMatchObject({ changes: "some", replaces: [] });
    const beforeUpdate = emulator.requests.length;
    await second.update(forgotten);
    expect(emulator.requests.length).toBe(beforeUpdate);
    expect(second.state.enabled).toBeUndefined();
    expect(second.state.password).toBe(`${PASSWORD}-2`);

    await second.delete();
    await second.delete();
    expectNoSecrets(host.stderr.join(""));
  });

  it("check refuses a replacing change that keeps the name, naming `name`, so that preview fails instead of up", async () => {
    const credential = new Driven(host, "EgressCredential", "bob-wg");
    const inputs = { egressProviderId: provider, name: "bob-wg-1", userId: USER_ID, password: PASSWORD, wireguardPrivateKey: WG_KEY, selectedGateways: [g1] };
    await credential.create(inputs);
    const olds = credential.state;
    const before = emulator.requests.length;

    // A new password and another gateway with the same name: refused, naming `name` and what changed.
    const refused = await credential.check({ ...inputs, password: `${PASSWORD}-2`, selectedGateways: [g1, g2] }, olds);
    expect(refused.failures).toEqual([{ property: "name", reason: expect.stringMatching(/^must change: password, selectedGateways changed/) }]);
    expect(refused.failures[0].reason).toMatch(/can neither update nor delete.*clash with the existing one named 'bob-wg-1'.*Give the credential a new name/s);
    expectNoSecrets(JSON.stringify(refused.failures));
    // The same with the provider's id spelled otherwise.
    expect((await credential.check({ ...inputs, egressProviderId: hyphenated(provider), enabled: false }, olds)).failures.map((f) => f.property)).toEqual([
      "name",
    ]);

    // Accepted: no change, ids spelled otherwise, a new name, an input the program stops declaring,
    // another provider (names are unique only within one), and values not known yet (preview).
    expect((await credential.check(inputs, olds)).failures).toEqual([]);
    expect((await credential.check({ ...inputs, userId: hyphenated(USER_ID), selectedGateways: [hyphenated(g1)] }, olds)).failures).toEqual([]);
    expect((await credential.check({ ...inputs, name: "bob-wg-2", password: `${PASSWORD}-2` }, olds)).failures).toEqual([]);
    const { wireguardPrivateKey: _key, ...forgotten } = inputs;
    expect((await credential.check(forgotten, olds)).failures).toEqual([]);
    expect((await credential.check({ ...inputs, egressProviderId: otherProvider, selectedGateways: [foreignGateway] }, olds)).failures).toEqual([]);
    expect((await credential.check({ ...inputs, password: UNKNOWN, selectedGateways: [UNKNOWN] }, olds)).failures).toEqual([]);
    expect((await credential.check({ ...inputs, name: UNKNOWN, password: `${PASSWORD}-2` }, olds)).failures).toEqual([]);
    // A new resource has no olds: nothing to clash with in the state.
    expect((await new Driven(host, "EgressCredential", "fresh").check({ ...inputs, name: "fresh-1" })).failures).toEqual([]);
    expect(emulator.requests.length).toBe(before);
    expectNoSecrets(host.stderr.join(""));
  });

  it("adopt takes over the provider's credential with the same name when it is as declared, and names what differs otherwise", async () => {
    // Made outside Pulumi (in the Kasm UI, or by a stack whose state was lost).
    const made = await emulator.specCall("create_egress_credential", {
      target_egress_credential: {
        egress_provider_id: provider,
        name: "shared-wg",
        group_id: GROUP_ID,
        allow_all_gateways: false,
        selected_gateways: [g1, g2],
        wireguard_private_key: WG_KEY,
        password: PASSWORD,
        enabled: true,
      },
    });
    expect(made.status).toBe(200);
    const existingId = made.body.egress_credentials[0].egress_credential_id;
    const inputs = {
      egressProviderId: hyphenated(provider),
      name: "shared-wg",
      groupId: GROUP_ID,
      selectedGateways: [g2, g1],
      wireguardPrivateKey: WG_KEY,
      password: PASSWORD,
    };

    // Without adopt: the error says the name is taken and suggests adopt.
    const plain = await new Driven(host, "EgressCredential", "shared").create(inputs).catch((e: Error) => e);
    expect((plain as Error).message).toMatch(/'shared-wg' already exists.*set `adopt: true`/s);
    expectNoSecrets((plain as Error).message);

    // Adopt, but the program differs in what Kasm shows: refused, naming the inputs, never their values.
    const differs = new Driven(host, "EgressCredential", "shared");
    const refused = await differs.create({ ...inputs, selectedGateways: [g1], enabled: false, username: "shared", adopt: true }).catch((e: Error) => e);
    expect((refused as Error).message).toMatch(
      /'shared-wg' of egress provider [0-9a-f]{32} exists, but differs from the program in username, enabled, selectedGateways\..*cannot bring it to the declared state/s,
    );
    expectNoSecrets((refused as Error).message);
    expect(differs.id).toBe("");
    const wrongSecret = await differs.create({ ...inputs, wireguardPrivateKey: `${WG_KEY}x`, adopt: true }).catch((e: Error) => e);
    expect((wrongSecret as Error).message).toMatch(/differs from the program in wireguardPrivateKey\./);
    expectNoSecrets((wrongSecret as Error).message);

    // Adopt, as declared: the existing credential is taken over, nothing is created.
    const before = emulator.requests.length;
    const adopted = new Driven(host, "EgressCredential", "shared");
    const state = await adopted.create({ ...inputs, adopt: true });
    expect(adopted.id).toBe(existingId);
    expect(state).toMatchObject({ ...inputs, adopt: true, egressCredentialId: existingId, activeConnections: 0 });
    expect(emulator.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_egress_credentials"]);
    expect(await credentialsNamed("shared-wg")).toHaveLength(1);

    // From then on it is managed like any other: no change for the same program, adopt changes nothing.
    const { __provider: _provider, ...refreshed } = (await adopted.read()).inputs ?? {};
    expect(refreshed).toEqual({ ...inputs, adopt: true });
    expect(await adopted.diff({ ...inputs, adopt: true })).toMatchObject({ changes: "none" });
    expect(await adopted.diff(inputs)).toMatchObject({ changes: "some", replaces: [] });
    expectNoSecrets(host.stderr.join(""));
  });

  it("a secret Kasm returns masked or as null is not drift; one returned in clear and changed is", async () => {
    // Kasm's API cannot change a credential: change what a persisted emulator returns between two runs.
    const dir = mkdtempSync(path.join(tmpdir(), "kasm-credential-"));
    const dataFile = path.join(dir, "data.json");
    let first: TestEmulator | undefined;
    let second: TestEmulator | undefined;
    let firstHost: ProviderHost | undefined;
    let secondHost: ProviderHost | undefined;
    try {
      first = await startTestEmulator({ users: [{ user_id: USER_ID, username: "alice" }] }, { dataFile });
      firstHost = await hostFor(first);
      const vpn = await createProvider("Custom VPN", first);
      const gateway = await createGateway(vpn, "Madrid", first);
      const credential = new Driven(firstHost, "EgressCredential", "masked");
      const inputs = {
        egressProviderId: vpn,
        name: "masked-1",
        userId: USER_ID,
        password: PASSWORD,
        wireguardPrivateKey: WG_KEY,
        meshKey: MESH_KEY,
        customCredential: `{"token":"${MESH_KEY}"}`,
        selectedGateways: [gateway],
      };
      await credential.create(inputs);
      // Stop each once: a second stop of a host would wait for an exit that already happened.
      await firstHost.stop();
      firstHost = undefined;
      await first.close();
      first = undefined;

      const data = JSON.parse(readFileSync(dataFile, "utf8"));
      const record = data.egressCredentials[credential.id];
      record.wireguard_private_key = null;
      record.mesh_key = "********";
      record.custom_credential = '{"token":"rotated-outside"}';
      writeFileSync(dataFile, JSON.stringify(data));
      second = await startTestEmulator({}, { dataFile });
      secondHost = await hostFor(second);
      const later = new Driven(secondHost, "EgressCredential", "masked");
      later.id = credential.id;
      later.state = credential.state;
      // The null and the masked secret stay as declared; the one Kasm shows in clear is compared.
      const { __provider: _provider, ...refreshed } = (await later.read()).inputs ?? {};
      expect(refreshed).toEqual({ ...inputs, customCredential: '{"token":"rotated-outside"}' });
      expect(await later.diff(inputs)).toMatchObject({ changes: "some", replaces: ["customCredential"] });
      expect(await later.diff({ ...inputs, customCredential: '{"token":"rotated-outside"}' })).toMatchObject({ changes: "none" });
      expectNoSecrets(secondHost.stderr.join(""));
    } finally {
      await firstHost?.stop();
      await secondHost?.stop();
      await first?.close();
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refresh shows drift (a selected gateway deleted in the Kasm UI), and the replacement brings Kasm to the declared state", async () => {
    const doomed = await createGateway(provider, "Doomed");
    const credential = new Driven(host, "EgressCredential", "eng-wg");
    const inputs = { egressProviderId: provider, name: "eng-wg-1", groupId: GROUP_ID, wireguardPrivateKey: WG_KEY, selectedGateways: [g1, doomed] };
    await credential.create(inputs);

    await emulator.specCall("delete_egress_gateway", { target_egress_gateway: { egress_gateway_id: doomed } });
    const refreshed = await credential.read();
    expect(refreshed.id).toBe(credential.id);
    expect(refreshed.inputs).toMatchObject({ selectedGateways: [g1], wireguardPrivateKey: WG_KEY, groupId: GROUP_ID });
    expect(await credential.diff(inputs)).toMatchObject({ changes: "some", replaces: ["selectedGateways"] });

    // Someone allows every gateway... not possible through the API; the program now selects g1 and g3.
    const next = { ...inputs, name: "eng-wg-2", selectedGateways: [g3, g1] };
    expect((await credential.diff(next)).replaces.sort()).toEqual(["name", "selectedGateways"]);
    const replacement = new Driven(host, "EgressCredential", "eng-wg");
    await replacement.create(next);
    const [kasm] = await credentialsNamed("eng-wg-2");
    expect(kasm).toMatchObject({ group_id: GROUP_ID, wireguard_private_key: WG_KEY });
    expect(gatewayIds(kasm)).toEqual([g1, g3].sort());
    const { __provider: _provider, ...refreshedNext } = (await replacement.read()).inputs ?? {};
    expect(refreshedNext).toEqual(next);
    expect(await replacement.diff(next)).toMatchObject({ changes: "none" });
  });

  it("refresh of a credential deleted with its provider drops it instead of failing", async () => {
    const temporary = await createProvider("Temporary");
    const gateway = await createGateway(temporary, "Temp 1");
    const credential = new Driven(host, "EgressCredential", "temp");
    await credential.create({ egressProviderId: temporary, name: "temp-1", userId: USER_ID, selectedGateways: [gateway] });
    expect((await credential.read()).id).toBe(credential.id);
    await emulator.specCall("delete_egress_provider", { target_egress_provider: { egress_provider_id: temporary } });
    expect((await credential.read()).id).toBe("");
  });

  it("a refused create keeps every secret out of the error and the host's stderr", async () => {
    const secretInputs = { password: PASSWORD, wireguardPrivateKey: WG_KEY, meshKey: MESH_KEY, customCredential: `{"token":"${MESH_KEY}"}` };

    // Refused by Kasm (400): a gateway of another provider.
    const foreign = new Driven(host, "EgressCredential", "foreign");
    const refused = await foreign
      .create({ egressProviderId: provider, name: "foreign-1", userId: USER_ID, selectedGateways: [foreignGateway], ...secretInputs })
      .catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/another egress provider/);
    expectNoSecrets((refused as Error).message);
    expectNoSecrets(host.stderr.join(""));

    // Refused for a missing permission (403): names it.
    const limited = await hostFor(emulator, NO_CREATE);
    try {
      const denied = new Driven(limited, "EgressCredential", "denied");
      const error = await denied
        .create({ egressProviderId: provider, name: "denied-1", userId: USER_ID, allowAllGateways: true, ...secretInputs })
        .catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Egress Credentials Create/);
      for (const text of [(error as Error).message, limited.stderr.join("")]) {
        expectNoSecrets(text);
        expect(text).not.toContain(NO_CREATE.secret);
      }
      expect(await credentialsNamed("denied-1")).toEqual([]);
    } finally {
      await limited.stop();
    }
  });
});

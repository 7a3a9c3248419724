/**
 * UserAttributes through Pulumi's real dynamic-provider host against the emulator: check, create
 * (an update of the record every user has), diff with other id forms, update, replacement, refresh
 * after drift and after the user's deletion, and delete (which only forgets).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator, hyphenatedUpperCase as hyphenated } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const IMAGE = "7a1c5e0f2b3d4c6e8f9a0b1c2d3e4f50";
const OTHER_IMAGE = "0b2d4f6a8c0e1a3b5c7d9e1f3a5b7c9d";
const SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB1x5y7z9k2m4n6p8q0r2s4t6v8w0y2A4C6E8G0I2K4M alice@laptop";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    images: [
      { image_id: IMAGE, name: "kasmweb/chrome:1.16.0" },
      { image_id: OTHER_IMAGE, name: "kasmweb/firefox:1.16.0" },
    ],
    users: [{ username: "alice" }, { username: "bob" }, { username: "gone" }, { username: "forget" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** `0123...` -> `01234567-89ab-...` (upper case, to show that case does not matter either). */
async function attributesInKasm(id: string) {
  const res = await emulator.specCall("get_attributes", { target_user: { user_id: id } });
  return res.status === 200 ? res.body.user_attributes : undefined;
}

describe("UserAttributes", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const attrs = new Driven(host, "UserAttributes", "bad");
    const privateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-never-in-logs\n-----END OPENSSH PRIVATE KEY-----";
    const before = emulator.requests.length;
    const { failures } = await attrs.check({ userId: "alice", sshPublicKey: privateKey, defaultImage: "chrome", showTips: "yes", colour: "blue" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "defaultImage", "showTips", "sshPublicKey", "userId"].sort());
    expect(failures.find((f) => f.property === "sshPublicKey")?.reason).toMatch(/private key/);
    expect(JSON.stringify(failures)).not.toContain("never-in-logs");
    expect(failures.find((f) => f.property === "userId")?.reason).toMatch(/Kasm id/);

    const { failures: notAKey } = await attrs.check({ userId: IMAGE, sshPublicKey: "hello" });
    expect(notAKey).toEqual([{ property: "sshPublicKey", reason: expect.stringMatching(/OpenSSH public key/) }]);
    expect(emulator.requests.length).toBe(before);
  });

  it("creates by setting the declared attributes, plans no change for the same inputs in other forms, updates in place, reverts drift", async () => {
    const alice = await emulator.userId("alice");
    const attrs = new Driven(host, "UserAttributes", "alice");
    const inputs = { userId: alice, sshPublicKey: `${SSH_KEY}\n`, defaultImage: hyphenated(IMAGE), showTips: false };
    const state = await attrs.create(inputs);
    expect(attrs.id).toBe(alice);
    const kasm = await attributesInKasm(alice);
    expect(kasm).toMatchObject({ ssh_public_key: SSH_KEY, default_image: IMAGE, show_tips: false, toggle_control_panel: true });
    expect(state).toMatchObject({ ...inputs, userAttributesId: kasm.user_attributes_id });
    // An attribute the program leaves out is not managed.
    expect(state).not.toHaveProperty("toggleControlPanel");

    // A second up with the same program, also with the ids in another form: no change.
    expect(await attrs.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await attrs.diff({ ...inputs, userId: hyphenated(alice), defaultImage: IMAGE, sshPublicKey: SSH_KEY })).toMatchObject({ changes: "none" });

    // Changed attributes update in place.
    const changed = { ...inputs, defaultImage: OTHER_IMAGE, showTips: true, toggleControlPanel: false, autoLoginWs: true };
    expect(await attrs.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await attrs.update(changed);
    expect(await attributesInKasm(alice)).toMatchObject({ default_image: OTHER_IMAGE, show_tips: true, toggle_control_panel: false, auto_login_ws: true });

    // Someone changes them in the Kasm UI: refresh shows it, and the next up reverts it.
    await emulator.specCall("update_user_attributes", { target_user_attributes: { user_id: alice, show_tips: false, default_image: IMAGE } });
    const refreshed = await attrs.read();
    expect(refreshed.id).toBe(alice);
    expect(refreshed.inputs).toMatchObject({ showTips: false, defaultImage: IMAGE, toggleControlPanel: false, sshPublicKey: `${SSH_KEY}\n` });
    expect(await attrs.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await attrs.update(changed);
    expect(await attributesInKasm(alice)).toMatchObject({ show_tips: true, default_image: OTHER_IMAGE });
    expect((await attrs.read()).inputs).toMatchObject({ showTips: true, defaultImage: OTHER_IMAGE });
    expect(await attrs.diff(changed)).toMatchObject({ changes: "none" });

    // "" clears the default image and the key.
    const cleared = { ...changed, defaultImage: "", sshPublicKey: "" };
    await attrs.update(cleared);
    expect(await attributesInKasm(alice)).toMatchObject({ default_image: null, ssh_public_key: "" });
    await attrs.read();
    expect(await attrs.diff(cleared)).toMatchObject({ changes: "none" });
  });

  it("another user replaces the resource", async () => {
    const attrs = new Driven(host, "UserAttributes", "bob");
    await attrs.create({ userId: await emulator.userId("bob"), showTips: false });
    expect(await attrs.diff({ userId: await emulator.userId("alice"), showTips: false })).toMatchObject({ changes: "some", replaces: ["userId"] });
  });

  it("an unknown user fails the create with a clear error and changes nothing", async () => {
    const attrs = new Driven(host, "UserAttributes", "nobody");
    await expect(attrs.create({ userId: "00000000000000000000000000000001", showTips: false })).rejects.toThrow(
      /no user with id 00000000000000000000000000000001/,
    );
  });

  it("refresh after the user was deleted drops the resource, and destroying it then succeeds", async () => {
    const gone = await emulator.userId("gone");
    const attrs = new Driven(host, "UserAttributes", "gone");
    await attrs.create({ userId: gone, showTips: false });
    await emulator.specCall("delete_user", { target_user: { user_id: gone } });
    expect((await attrs.read()).id).toBe("");
    await attrs.delete();
  });

  it("destroying only forgets: Kasm keeps the values and no request is sent", async () => {
    const forget = await emulator.userId("forget");
    const attrs = new Driven(host, "UserAttributes", "forget");
    await attrs.create({ userId: forget, showTips: false, defaultImage: IMAGE });
    const before = emulator.requests.length;
    await attrs.delete();
    expect(emulator.requests.length).toBe(before);
    expect(await attributesInKasm(forget)).toMatchObject({ show_tips: false, default_image: IMAGE });
    // Destroying again (nothing to do) succeeds too.
    await attrs.delete();
  });
});

/**
 * User through Pulumi's real dynamic-provider host against the emulator: check, create, diff,
 * update, refresh after drift, adoption, deletion, permission denial and secret handling.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const SECRET_PASSWORD = "pw-never-in-logs-8c1f";
const LIMITED = { key: "limited-key", secret: "limited-secret-77a0" };

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [{ name: "limited", key: LIMITED.key, secret: LIMITED.secret, permissions: ["Users View"] }],
    images: [{ name: "kasmweb/chrome:1.16.0" }],
    users: [{ username: "existing", first_name: "Old" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

async function userInKasm(username: string) {
  const res = await emulator.specCall("get_user", { target_user: { username } });
  return res.status === 200 ? res.body.user : undefined;
}

describe("User", () => {
  it("check refuses bad input, naming the property, before any request", async () => {
    const user = new Driven(host, "User", "bad");
    const before = emulator.requests.length;
    const { failures } = await user.check({ username: "two words", firstName: "x".repeat(65), colour: "blue" });
    expect(failures.map((f) => f.property).sort()).toEqual(["(inputs)", "firstName", "username"].sort());
    expect(failures.find((f) => f.property === "firstName")?.reason).toMatch(/64 characters/);
    expect(failures.find((f) => f.property === "(inputs)")?.reason).toMatch(/colour/);
    expect(emulator.requests.length).toBe(before);
  });

  it("check lets values unknown during preview through", async () => {
    const user = new Driven(host, "User", "preview");
    const { failures } = await user.check({ username: "04da6b54-80e4-46f7-96ec-b56ff0331ba9", firstName: "Ann" });
    expect(failures).toEqual([]);
  });

  it("creates, plans no change for the same inputs, updates in place, refreshes drift and deletes", async () => {
    const user = new Driven(host, "User", "carol");
    const inputs = { username: "Carol", password: SECRET_PASSWORD, firstName: "Carol", locked: false };
    const state = await user.create(inputs);
    expect(user.id).toMatch(/^[0-9a-f]{32}$/);
    expect(state).toMatchObject({ username: "Carol", firstName: "Carol", userId: user.id, realm: "local" });
    expect(await userInKasm("carol")).toMatchObject({ user_id: user.id, first_name: "Carol", locked: false });

    // A second up with the same program: no change (the username's case and the id's form do not matter).
    expect(await user.diff(inputs)).toMatchObject({ changes: "none", replaces: [] });
    expect(await user.diff({ ...inputs, username: "carol" })).toMatchObject({ changes: "none" });

    // A changed name updates in place.
    const changed = { ...inputs, lastName: "Jones", firstName: "Caroline" };
    expect(await user.diff(changed)).toMatchObject({ changes: "some", replaces: [] });
    await user.update(changed);
    expect(await userInKasm("carol")).toMatchObject({ first_name: "Caroline", last_name: "Jones" });

    // Someone locks the user in the Kasm UI: refresh sees it, and the next up reverts it.
    await emulator.specCall("update_user", { target_user: { user_id: user.id, locked: true } });
    const refreshed = await user.read();
    expect(refreshed.inputs).toMatchObject({ locked: true, firstName: "Caroline", password: SECRET_PASSWORD });
    expect(await user.diff(changed)).toMatchObject({ changes: "some" });
    await user.update(changed);
    expect(await userInKasm("carol")).toMatchObject({ locked: false });
    expect((await user.read()).inputs).toMatchObject({ locked: false });
    expect(await user.diff(changed)).toMatchObject({ changes: "none" });

    await user.delete();
    expect(await userInKasm("carol")).toBeUndefined();
  });

  it("a password change updates in place and stays out of every log", async () => {
    const user = new Driven(host, "User", "pw");
    await user.create({ username: "pwuser", password: SECRET_PASSWORD });
    const next = { username: "pwuser", password: `${SECRET_PASSWORD}-2` };
    expect(await user.diff(next)).toMatchObject({ changes: "some", replaces: [] });
    await user.update(next);
    await user.delete();
    expect(JSON.stringify(await emulator.state())).not.toContain(SECRET_PASSWORD);
    // The host's stderr is checked once the host has exited (the last test), when all of it has arrived.
  });

  it("refresh of a user deleted in the Kasm UI drops it instead of failing", async () => {
    const user = new Driven(host, "User", "gone");
    await user.create({ username: "gone" });
    await emulator.specCall("delete_user", { target_user: { user_id: user.id } });
    expect((await user.read()).id).toBe("");
  });

  it("an existing username is an error that suggests adopt, also after an interrupted up, and adopt takes the user over", async () => {
    const clash = new Driven(host, "User", "existing");
    const error = (await clash.create({ username: "existing", firstName: "New", password: "never-in-a-message-31" }).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/already exists in Kasm.*adopt: true/s);
    // A dynamic resource cannot be imported: after an interrupted up, adopt takes it over, and refresh drops the pending create.
    expect(error.message).toContain(
      'If an earlier `pulumi up` was interrupted while creating it (the next `up` lists it as "interrupted while creating"), `adopt: true` takes it over too, ' +
        "and `pulumi refresh --yes --clear-pending-creates` drops the pending create that `up` left.",
    );
    expect(error.message).not.toContain("pulumi import");
    expect(error.message).not.toContain("never-in-a-message-31");

    const adopted = new Driven(host, "User", "existing-adopted");
    await adopted.create({ username: "Existing", firstName: "New", adopt: true });
    const kasm = await userInKasm("existing");
    expect(adopted.id).toBe(kasm.user_id);
    expect(kasm.first_name).toBe("New");
  });

  it("destroying a user with sessions fails with advice unless forceDelete is set", async () => {
    const user = new Driven(host, "User", "busy");
    await user.create({ username: "busy" });
    const images = await emulator.specCall("get_images");
    await emulator.specCall("request_ws", { user_id: user.id, image_id: images.body.images[0].image_id });
    await expect(user.delete()).rejects.toThrow(/still has running sessions.*forceDelete: true/s);
    expect(await userInKasm("busy")).toBeDefined();

    await user.update({ username: "busy", forceDelete: true });
    await user.delete();
    expect(await userInKasm("busy")).toBeUndefined();
  });

  it("a refused create names the permission to grant, without the secret", async () => {
    const limited = await hostFor(emulator, LIMITED);
    try {
      const user = new Driven(limited, "User", "denied");
      const error = await user.create({ username: "denied" }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/Users Create/);
      expect((error as Error).message).not.toContain(LIMITED.secret);
      expect(await userInKasm("denied")).toBeUndefined();
    } finally {
      await limited.stop();
    }
    // Stopped: everything the host wrote has arrived.
    expect(limited.stderr.join("")).not.toContain(LIMITED.secret);
  });

  it("no password or key secret reached the host's stderr", async () => {
    await host.stop();
    const stderr = host.stderr.join("");
    expect(stderr).not.toContain(SECRET_PASSWORD);
    expect(stderr).not.toContain("admin-secret");
  });
});

/**
 * The errors the kinds throw of their own are instances of the class of their meaning
 * (provider/resources/framework/errors.ts), with the client's error for Kasm's answer as `cause` where
 * there is one.
 *
 * The class does not cross Pulumi's dynamic-provider host (only the message and an
 * initialisation failure's id, properties and reasons do: the other provider tests assert those),
 * so these drive the registry the host loads (`providers` and `configure` of provider/index.ts) in
 * this process, against the emulator: check, then the method, as the host calls them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, providers, type KindName } from "../../provider";
import { KasmAlreadyExistsError, KasmForceRequiredError, KasmNotFoundError, KasmPermissionError } from "../../provider/api";
import {
  KasmDeclarationRefusedError,
  KasmDeleteBlockedError,
  KasmInitializationError,
  KasmNotAdoptedError,
  KasmObjectMissingError,
  KasmReadPermissionError,
  KasmResourceError,
  KasmUnfinishedError,
  KasmUnsupportedInputError,
} from "../../provider/resources/framework";
import type { Props } from "../../provider/resources/framework/types";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { FAST_RETRIES, WITHOUT_INSTALLATION_CHECK } from "../helpers/provider";
import { API_NAMES_CONFIG, TEST_API_NAMES } from "../helpers/vocabulary";

const ALL_USERS = "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a";
const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const ADMINISTRATORS = "fa0e1d2c3b4a59687766554433221100";
const UNKNOWN_ID = "3dffffffffffffffffffffffffffffff";
/** May change memberships, but not of Administrators (that needs Groups Modify System). */
const LIMITED = { key: "limited-key", secret: "limited-secret-4c1d" };
/** May read users, but not their groups. */
const BLIND = { key: "blind-key", secret: "blind-secret-7e2a" };

let emulator: TestEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({
    apiKeys: [
      { name: "limited", key: LIMITED.key, secret: LIMITED.secret, permissions: ["Users View", "Groups View", "Groups Modify"] },
      { name: "blind", key: BLIND.key, secret: BLIND.secret, permissions: ["Users View"] },
    ],
    groups: [
      { group_id: ALL_USERS, name: "All Users" },
      { group_id: ADMINISTRATORS, name: "Administrators" },
      { group_id: ENGINEERING, name: "Engineering" },
    ],
    users: [{ username: "existing" }, { username: "carol" }, { username: "dave" }],
    images: [{ name: "kasmweb/chrome:1.16.0" }],
  });
  // The default connection is the admin key; "limited" and "blind" are the same emulator through the other keys.
  const settings: Record<string, string> = {
    ...FAST_RETRIES,
    ...WITHOUT_INSTALLATION_CHECK,
    ...API_NAMES_CONFIG,
    "kasm:baseUrl": emulator.url,
    "kasm:apiKey": ADMIN.key,
    "kasm:apiKeySecret": ADMIN.secret,
  };
  for (const [name, creds] of [
    ["limited", LIMITED],
    ["blind", BLIND],
  ] as const)
    Object.assign(settings, {
      [`kasm-${name}:baseUrl`]: emulator.url,
      [`kasm-${name}:apiKey`]: creds.key,
      [`kasm-${name}:apiKeySecret`]: creds.secret,
      [`kasm-${name}:apiNames`]: TEST_API_NAMES,
    });
  configure({ config: { get: (key) => settings[key] } });
});
afterAll(async () => {
  await emulator?.close();
});

/** Check the inputs, then create with what check answered, as the host does. */
async function create(kind: KindName, inputs: Props): Promise<{ id: string; outs?: Props }> {
  const { inputs: checked, failures } = await providers[kind].check!({}, inputs);
  if (failures?.length) throw new Error(`check failed: ${JSON.stringify(failures)}`);
  return providers[kind].create(checked);
}

/** What `run` threw (a failure of the test when it did not). */
async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error, but it succeeded");
}

describe("the errors a kind throws of its own", () => {
  it("an existing object without adopt is a KasmNotAdoptedError: found before any create, or caused by Kasm's KasmAlreadyExistsError", async () => {
    // User looks its username up before creating (framework/define-kind.ts, findFirst): nothing is sent to Kasm to refuse.
    const existing = await emulator.userId("existing");
    const error = await thrown(() => create("User", { username: "existing", firstName: "New" }));
    expect(error).toBeInstanceOf(KasmNotAdoptedError);
    expect(error).toBeInstanceOf(KasmResourceError);
    expect((error as Error).name).toBe("KasmNotAdoptedError");
    expect((error as Error).message).toMatch(/already exists in Kasm.*adopt: true/s);
    expect((error as Error).message).toContain(`(user ${existing})`);
    // A casting config is looked up by its key; another config's name is Kasm's to refuse.
    const image = Object.values<any>((await emulator.state()).images)[0].image_id;
    expect(
      (await emulator.specCall("create_cast_config", { target_cast_config: { casting_config_name: "Taken", key: "taken", image_id: image } })).status,
    ).toBe(200);
    const refused = await thrown(() => create("CastConfig", { castingConfigName: "Taken", key: "another", imageId: image }));
    expect(refused).toBeInstanceOf(KasmNotAdoptedError);
    expect((refused as Error).message).toMatch(/already exists in Kasm.*adopt: true/s);
    expect((refused as Error).cause).toBeInstanceOf(KasmAlreadyExistsError);
  });

  it("a user or server Kasm does not have is a KasmObjectMissingError", async () => {
    const noUser = await thrown(() => create("UserGroups", { userId: UNKNOWN_ID, groupIds: [ENGINEERING] }));
    expect(noUser).toBeInstanceOf(KasmObjectMissingError);
    // It names the resource (by the id, as no name was given here), the installation and the way out.
    expect((noUser as Error).message).toBe(
      `UserGroups ${UNKNOWN_ID}: the server at ${emulator.url} has no user with id ${UNKNOWN_ID}. A user deleted in Kasm and created again has a new id: ` +
        "give userId from the User resource (its userId output) rather than as text, so that this resource follows it; or remove this resource.",
    );
    const noAttributesUser = await thrown(() => create("UserAttributes", { userId: UNKNOWN_ID, showTips: true, __resourceName: "ada-attributes" }));
    expect(noAttributesUser).toBeInstanceOf(KasmObjectMissingError);
    expect((noAttributesUser as Error).message).toMatch(
      new RegExp(
        `^UserAttributes ada-attributes: the server at ${emulator.url} has no user with id ${UNKNOWN_ID}; the attributes record exists only with its user\. `,
      ),
    );

    const noServer = await thrown(() => create("ServerDrain", { serverId: UNKNOWN_ID }));
    expect(noServer).toBeInstanceOf(KasmObjectMissingError);
    expect((noServer as Error).message).toMatch(new RegExp(`^Server ${UNKNOWN_ID} does not exist in Kasm`));
    expect((noServer as Error).cause).toBeInstanceOf(KasmNotFoundError);
  });

  it("All Users among a user's groups is a KasmUnsupportedInputError", async () => {
    const carol = await emulator.userId("carol");
    // Check refuses it too when it can read the user; create refuses it for a plan made without that read.
    const error = await thrown(() => providers.UserGroups.create({ userId: carol, groupIds: [ALL_USERS] }));
    expect(error).toBeInstanceOf(KasmUnsupportedInputError);
    expect((error as Error).message).toMatch(/^UserGroups groupIds: All Users \(.*\) is implicit/);
  });

  it("a user record without its groups (no Groups View) is a KasmReadPermissionError naming what to grant", async () => {
    const carol = await emulator.userId("carol");
    const error = await thrown(() => create("UserGroups", { userId: carol, groupIds: [ENGINEERING], connection: "blind" }));
    expect(error).toBeInstanceOf(KasmReadPermissionError);
    expect((error as KasmReadPermissionError).toGrant).toEqual(["Groups View"]);
    expect((error as Error).message).toMatch(/Grant the API key: Groups View\.$/);
  });

  it("a refused import is a KasmDeclarationRefusedError listing each problem in the program's terms", async () => {
    const error = await thrown(() => create("UserSet", { users: [{ username: "jack" }, { username: "kate", groups: ["Nope"] }] }));
    expect(error).toBeInstanceOf(KasmDeclarationRefusedError);
    expect((error as Error).message).toMatch(/refused the import.*created no user/s);
    expect((error as KasmDeclarationRefusedError).problems).toEqual([expect.stringMatching(/^users\[1\] \('kate'\)\.groups\[0\]: CSV_ERROR_011 .*Nope/)]);
  });

  it("a user with running sessions is a KasmDeleteBlockedError, caused by Kasm's KasmForceRequiredError", async () => {
    const { id } = await create("User", { username: "busy" });
    const images = await emulator.specCall("get_images");
    await emulator.specCall("request_ws", { user_id: id, image_id: images.body.images[0].image_id });
    const error = await thrown(() => providers.User.delete(id, { username: "busy" }));
    expect(error).toBeInstanceOf(KasmDeleteBlockedError);
    expect((error as Error).message).toMatch(/still has running sessions.*forceDelete: true/s);
    expect((error as Error).cause).toBeInstanceOf(KasmForceRequiredError);
    await providers.User.delete(id, { username: "busy", forceDelete: true });
  });

  it("a create refused half way is a KasmInitializationError whose id, properties and reasons the host reads", async () => {
    const dave = await emulator.userId("dave");
    // Engineering is added first (id order); Administrators needs Groups Modify System, which "limited" lacks.
    const error = await thrown(() => create("UserGroups", { userId: dave, groupIds: [ADMINISTRATORS, ENGINEERING], connection: "limited" }));
    expect(error).toBeInstanceOf(KasmInitializationError);
    expect(error).toBeInstanceOf(KasmUnfinishedError);
    const failure = error as KasmInitializationError;
    expect(failure.id).toBe(dave);
    // The registry's wrapper added the connection to the properties the kind kept.
    expect(failure.properties).toMatchObject({ userId: dave, groupIds: [ENGINEERING], connection: "limited" });
    expect(failure.reasons).toEqual([failure.message]);
    expect(failure.message).toMatch(/Groups Modify System/);
    expect(failure.message).not.toContain(LIMITED.secret);
    expect(failure.cause).toBeInstanceOf(KasmPermissionError);
    await providers.UserGroups.delete(failure.id, failure.properties as Props);
  });
});

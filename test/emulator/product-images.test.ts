/**
 * The product's image operations (get_image, create_image, update_image, delete_image) and its
 * get_images record, over HTTP in product mode: answers, 1.15's refusals (HTTP 200 with an
 * `error_message`), the emulator's 400s for fields the product fails on, the permissions (Images
 * Modify Resources for compute-related changes), and spec mode's 404s.
 */
import { describe, expect, it } from "vitest";
import type { OperationName, PermissionName } from "../../permissions";
import { wire } from "../helpers/emulator";
import { emulatorsInBothVocabularies } from "../helpers/emulator-pair";

const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const ZONE = "0a000000000000000000000000000001";
const SERVER = "5e000000000000000000000000000001";
const POOL = "50000000000000000000000000000001";
const ENGINEERING = "e0e0e0e0e0e04e0e0e0e0e0e0e0e0003";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";
const TOKEN = "registry-secret-1";

const IMAGE_OPERATIONS: OperationName[] = ["get_image", "create_image", "update_image", "delete_image"];

/** A key holding `permissions`, by name. */
const key = (name: string, permissions: PermissionName[]) => ({ name, key: `key-${name}`, secret: `secret-${name}`, permissions });
const creds = (name: string) => ({ key: `key-${name}`, secret: `secret-${name}` });

const SEED = {
  apiKeys: [
    key("modify", ["Images View", "Images Modify"]),
    key("resources", ["Images View", "Images Modify", "Images Modify Resources"]),
    key("resources-only", ["Images View", "Images Modify Resources"]),
    key("create", ["Images View", "Images Create"]),
    key("view", ["Images View"]),
    key("users", ["Users View"]),
    { ...key("read-only", ["Global Admin"]), readOnly: true },
  ],
  groups: [{ group_id: ENGINEERING, name: "Engineering" }],
  zones: [{ zone_id: ZONE, zone_name: "default" }],
  serverPools: [{ server_pool_id: POOL, server_pool_name: "Pool A" }],
  servers: [{ server_id: SERVER, hostname: "ws1.example.org", zone_name: "default" }],
  images: [
    {
      image_id: CHROME,
      name: "kasmweb/chrome:1.16.0",
      friendly_name: "Chrome",
      categories: ["Browser"],
      ctr_registry: "https://index.docker.io/v1/",
      ctr_user: "puller",
      ctr_token: TOKEN,
    },
    { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal", groups: ["Engineering"] },
  ],
  users: [{ username: "alice" }],
  castConfigs: [{ key: "lobby", image_name: "kasmweb/chrome:1.16.0" }],
  sessions: [{ username: "alice", image_name: "kasmweb/terminal:1.16.0" }],
};

const emulators = emulatorsInBothVocabularies(SEED);

/** What the Terraform client whose CI runs 1.16.1 sends to create an image: the configs as JSON text, categories as lines. */
const CI_IMAGE = {
  image_src: "img/thumbnails/chrome.png",
  categories: "Testing\nBrowsers\nTesting",
  run_config: JSON.stringify({ hostname: "kasm-test", environment: { KASM_TEST: "true" } }),
  description: "Test image for acceptance tests",
  exec_config: JSON.stringify({ first_launch: { cmd: "google-chrome --start-maximized" } }),
  friendly_name: "Chrome_Test",
  docker_registry: "https://index.docker.io/v1/",
  name: "kasmweb/chrome:1.17.0",
  uncompressed_size_mb: 2000,
  image_type: "Container",
  enabled: true,
  memory: 2048000000,
  cores: 2,
  gpu_count: 0,
  require_gpu: null,
  volume_mappings: "{}",
};

/** The product-mode record of the image CI_IMAGE creates. */
const CI_RECORD = {
  name: "kasmweb/chrome:1.17.0",
  friendly_name: "Chrome_Test",
  description: "Test image for acceptance tests",
  enabled: true,
  available: true,
  memory: 2048000000,
  cores: 2,
  cpu_allocation_method: "Inherit",
  x_res: 800,
  y_res: 600,
  docker_registry: "https://index.docker.io/v1/",
  docker_user: null,
  docker_token: null,
  hash: null,
  volume_mappings: {},
  run_config: { hostname: "kasm-test", environment: { KASM_TEST: "true" } },
  persistent_profile_config: {},
  persistent_profile_path: null,
  exec_config: { first_launch: { cmd: "google-chrome --start-maximized" } },
  imageAttributes: [],
  restrict_to_network: false,
  restrict_to_zone: false,
  restrict_to_server: false,
  zone_id: null,
  zone_name: null,
  server_id: null,
  network_name: null,
  image_src: "img/thumbnails/chrome.png",
  restrict_network_names: [],
  filter_policy_id: null,
  filter_policy_name: null,
  filter_policy_force_disabled: false,
  session_time_limit: null,
  categories: ["Testing", "Browsers"],
  default_category: "Testing",
  allow_network_selection: false,
  require_gpu: false,
  gpu_count: 0,
  hidden: false,
  notes: null,
  image_type: "Container",
  server_pool_id: null,
  link_url: null,
  uncompressed_size_mb: 2000,
  launch_config: {},
};

describe("which mode serves the image operations", () => {
  it.each([...IMAGE_OPERATIONS])("spec mode answers %s as an unknown operation", async (operation) => {
    expect(wire(await emulators.spec.call(operation, { target_image: { image_id: CHROME } }))).toEqual({
      status: 404,
      body: { error_message: `Unknown API path (/api/public/${operation})` },
    });
  });

  it("spec mode's get_images keeps the spec's record, the registry password masked", async () => {
    const chrome = (await emulators.spec.call("get_images")).body.images.find((i: { image_id: string }) => i.image_id === CHROME);
    expect(chrome).toMatchObject({ ctr_registry: "https://index.docker.io/v1/", ctr_user: "puller", ctr_token: "**********" });
    expect(chrome).not.toHaveProperty("categories");
  });
});

describe("permissions", () => {
  it.each([
    ["create_image", "view", { target_image: { name: "x" } }],
    ["update_image", "view", { target_image: { image_id: CHROME, description: "x" } }],
    ["delete_image", "resources", { target_image: { image_id: CHROME } }],
    ["get_image", "users", { target_image: { image_id: CHROME } }],
  ] as const)("%s is refused to a key without its permission (%s)", async (operation, as, body) => {
    const before = await emulators.product.state();
    expect(wire(await emulators.product.call(operation as OperationName, body, creds(as)))).toEqual({ status: 403, body: { error_message: "Unauthorized." } });
    expect(await emulators.product.state()).toEqual(before);
  });

  it("a Read Only key may read an image but not create one", async () => {
    expect((await emulators.product.call("get_image", { image_id: CHROME }, creds("read-only"))).status).toBe(200);
    expect(wire(await emulators.product.call("create_image", { target_image: { name: "x" } }, creds("read-only")))).toEqual({
      status: 403,
      body: { error_message: "Unauthorized." },
    });
  });

  it("create_image needs Images Create only, compute-related fields included (1.15 checks none)", async () => {
    const res = await emulators.product.call("create_image", { target_image: { name: "kasmweb/gpu:1.0", memory: 4096000000, gpu_count: 1 } }, creds("create"));
    expect(res.body.image).toMatchObject({ memory: 4096000000, gpu_count: 1 });
  });
});

describe("get_images and get_image", () => {
  it("get_images lists 1.15's record, with the server's hostname and the pool's name", async () => {
    const chrome = (await emulators.product.call("get_images")).body.images.find((i: { image_id: string }) => i.image_id === CHROME);
    expect(chrome).toMatchObject({
      categories: ["Browser"],
      default_category: "Browser",
      docker_token: "**********",
      docker_user: "puller",
      server: {},
      server_pool: {},
    });
  });

  it("get_image reads target_image.image_id or a top-level image_id, and answers {image}", async () => {
    const byTarget = await emulators.product.call("get_image", { target_image: { image_id: CHROME } });
    const byTop = await emulators.product.call("get_image", { image_id: CHROME });
    expect(byTarget.status).toBe(200);
    expect(byTarget.body).toEqual(byTop.body);
    expect(byTarget.body.image).toMatchObject({ image_id: CHROME, name: "kasmweb/chrome:1.16.0", docker_token: "**********" });
    expect(JSON.stringify(byTarget.body)).not.toContain(TOKEN);
  });

  it.each([
    ["no id", {}, "Invalid Request: Missing required parameters"],
    ["an unknown id", { image_id: UNKNOWN }, `Image(${UNKNOWN}) Does not Exist`],
  ])("get_image refuses %s with HTTP 200", async (_what, body, message) => {
    expect(wire(await emulators.product.call("get_image", body))).toEqual({ status: 200, body: { error_message: message } });
  });
});

describe("create_image", () => {
  it("takes the configs as JSON text and categories as lines, and answers {image} with a new image_id", async () => {
    const res = await emulators.product.call("create_image", { target_image: CI_IMAGE });
    expect(wire(res)).toEqual({ status: 200, body: { image: { image_id: expect.stringMatching(/^[0-9a-f]{32}$/), ...CI_RECORD } } });
    const listed = (await emulators.product.call("get_images")).body.images.map((i: { image_id: string }) => i.image_id);
    expect(listed).toContain(res.body.image.image_id);
  });

  it("stores the registry password but answers it masked, and never logs it", async () => {
    const res = await emulators.product.call("create_image", { target_image: { name: "kasmweb/private:1", docker_user: "me", docker_token: "s3cr3t-token" } });
    expect(res.body.image).toMatchObject({ docker_user: "me", docker_token: "**********" });
    expect((await emulators.product.state()).images[res.body.image.image_id].ctr_token).toBe("s3cr3t-token");
    expect(emulators.product.requests.join("\n")).not.toContain("s3cr3t-token");
  });

  it("fills 1.15's data-model defaults for what is left out (no field is required)", async () => {
    const res = await emulators.product.call("create_image", { target_image: { friendly_name: "Bare" } });
    expect(res.body.image).toMatchObject({
      name: null,
      friendly_name: "Bare",
      memory: 768000000,
      cores: 1,
      enabled: true,
      image_type: "Container",
      categories: [],
    });
  });

  it("restricts an image to a zone, a server or a pool that exists", async () => {
    const target = { name: "kasmweb/zoned:1", restrict_to_zone: true, zone_id: ZONE, restrict_to_server: true, server_id: SERVER, server_pool_id: POOL };
    const res = await emulators.product.call("create_image", { target_image: target });
    expect(res.body.image).toMatchObject({ zone_id: ZONE, zone_name: "default", server_id: SERVER, server_pool_id: POOL, restrict_to_zone: true });
    const listed = (await emulators.product.call("get_images")).body.images.find((i: { image_id: string }) => i.image_id === res.body.image.image_id);
    expect(listed).toMatchObject({ server: { hostname: "ws1.example.org" }, server_pool: { server_pool_name: "Pool A" } });
  });

  it.each([
    ["no target_image", {}, "Invalid Request: Missing required parameters"],
    ["an empty target_image", { target_image: {} }, "Invalid Request: Missing required parameters"],
    ["a config as an object", { target_image: { run_config: { a: 1 } } }, "Invalid json format for run_config"],
    ["a config that is not JSON", { target_image: { exec_config: "{nope" } }, "Invalid json format for exec_config"],
    [
      "a volume without its options",
      { target_image: { volume_mappings: '{"/data": {"bind": "/data"}}' } },
      "Invalid volume_mappings: Config /data is missing one or more required options {'mode', 'uid', 'gid'}",
    ],
    [
      "a volume mode",
      { target_image: { volume_mappings: '{"/d": {"bind": "/d", "mode": "rx", "uid": 1, "gid": 1}}' } },
      "Invalid volume_mappings: mode must be either ['rw', 'ro']",
    ],
    [
      "a profile path without the user",
      { target_image: { persistent_profile_path: "/profiles" } },
      "Invalid Request:Persistent Profile Path must contain either (username} or {user_id} as part of the path",
    ],
    [
      "a network restriction without networks",
      { target_image: { restrict_to_network: true } },
      "Invalid Request: Docker Network Names is required if Restrict Image to Docker Network is True",
    ],
    [
      "a server restriction without a server",
      { target_image: { restrict_to_server: true } },
      "Invalid Request: server_id required if restrict_to_server is True",
    ],
    ["a server id that is not a UUID", { target_image: { restrict_to_server: true, server_id: "ws1" } }, "Invalid Request: server_id must be a uuid"],
    [
      "an unknown server",
      { target_image: { restrict_to_server: true, server_id: UNKNOWN } },
      "Invalid Request: No Server exists with id (ffffffff-ffff-ffff-ffff-ffffffffffff)",
    ],
    ["a zone restriction without a zone", { target_image: { restrict_to_zone: true } }, "Invalid Request: zone_id required if restrict_to_zone is True"],
    [
      "an unknown zone",
      { target_image: { restrict_to_zone: true, zone_id: UNKNOWN } },
      "Invalid Request: No Zone exists with id (ffffffff-ffff-ffff-ffff-ffffffffffff)",
    ],
    [
      "an unknown filter policy",
      { target_image: { filter_policy_id: UNKNOWN } },
      "Invalid Request: No Filter policy exists with id (ffffffff-ffff-ffff-ffff-ffffffffffff)",
    ],
  ])("refuses %s with HTTP 200 and changes nothing", async (_what, body, message) => {
    const before = await emulators.product.state();
    expect(wire(await emulators.product.call("create_image", body))).toEqual({ status: 200, body: { error_message: message } });
    expect(await emulators.product.state()).toEqual(before);
  });

  it.each([
    ["docker_password", { docker_password: "x" }, "target_image.docker_password: not an image setting (the registry password is docker_token)"],
    ["available", { available: true }, "target_image.available: not an image setting (an answer's field: leave it out)"],
    ["network_name", { network_name: "n" }, "target_image.network_name: not an image setting (the product takes restrict_network_names)"],
    ["an image_id", { image_id: CHROME }, "target_image.image_id: not an image setting (create_image makes a new image; change one with update_image)"],
    ["categories as a list", { categories: ["a"] }, "target_image.categories: Invalid input: expected string, received array"],
    ["a mistyped registry", { docker_registry: 5 }, "target_image.docker_registry: Invalid input: expected string, received number"],
  ])("refuses %s with 400 (the product fails on it)", async (_what, target, message) => {
    expect(wire(await emulators.product.call("create_image", { target_image: { name: "kasmweb/x:1", ...target } }))).toEqual({
      status: 400,
      body: { error_message: `Invalid Request: ${message}` },
    });
  });
});

describe("update_image", () => {
  /** A fresh image to change, created with the registry and its credentials set. */
  async function freshImage(): Promise<string> {
    const target = { ...CI_IMAGE, name: "kasmweb/update:1", docker_user: "puller", docker_token: TOKEN, notes: "kept" };
    return (await emulators.product.call("create_image", { target_image: target })).body.image.image_id;
  }

  it("takes the whole record: a field left out keeps its value, except those 1.15 always writes", async () => {
    const id = await freshImage();
    const res = await emulators.product.call("update_image", { target_image: { image_id: id, friendly_name: "Renamed", description: "", memory: 0 } });
    expect(res.status).toBe(200);
    expect(res.body.image).toMatchObject({
      image_id: id,
      friendly_name: "Renamed",
      // "" and 0 are falsy: 1.15 keeps the stored value.
      description: "Test image for acceptance tests",
      memory: 2048000000,
      notes: "kept",
      categories: ["Testing", "Browsers"],
      // Always written: left out, they become null (0 for gpu_count).
      docker_registry: null,
      docker_user: null,
      docker_token: null,
      gpu_count: 0,
    });
  });

  it("keeps the registry password when the mask an answer showed is sent back", async () => {
    const id = await freshImage();
    const image = (await emulators.product.call("get_image", { image_id: id })).body.image;
    const { image_id, docker_registry, docker_user, docker_token } = image;
    const res = await emulators.product.call("update_image", { target_image: { image_id, docker_registry, docker_user, docker_token, description: "New" } });
    expect(res.body.image).toMatchObject({ description: "New", docker_token: "**********" });
    expect((await emulators.product.state()).images[id].ctr_token).toBe(TOKEN);
  });

  it('clears a config with "" and replaces one with JSON text', async () => {
    const id = await freshImage();
    const res = await emulators.product.call("update_image", { target_image: { image_id: id, run_config: "", exec_config: '{"go": {"cmd": "ls"}}' } });
    expect(res.body.image).toMatchObject({ run_config: {}, exec_config: { go: { cmd: "ls" } } });
  });

  it.each([
    ["no target_image", {}, "Invalid Request: Missing required parameters"],
    ["no image_id", { target_image: { description: "x" } }, "Invalid Request: Missing required parameters"],
    ["an unknown image", { target_image: { image_id: UNKNOWN } }, `User (None) attempted to update an image (${UNKNOWN}) that does not exist.`],
    ["a config as an object", { target_image: { image_id: CHROME, volume_mappings: {} } }, "Invalid json format for volume_mappings"],
  ])("refuses %s with HTTP 200 and changes nothing", async (_what, body, message) => {
    const before = await emulators.product.state();
    expect(wire(await emulators.product.call("update_image", body))).toEqual({ status: 200, body: { error_message: message } });
    expect(await emulators.product.state()).toEqual(before);
  });

  describe("Images Modify without Images Modify Resources", () => {
    /**
     * The whole record of an image as an update sends it back (the answer's own fields left out;
     * the configs as JSON text), with the registry password as a program declares it: sent back
     * masked, it would count as a change (see the test of the mask).
     */
    async function wholeRecord(id: string): Promise<Record<string, unknown>> {
      const image = (await emulators.product.call("get_image", { image_id: id })).body.image;
      const settings = [
        "image_id",
        "name",
        "friendly_name",
        "description",
        "memory",
        "cores",
        "cpu_allocation_method",
        "docker_registry",
        "docker_user",
        "gpu_count",
        "require_gpu",
        "uncompressed_size_mb",
        "hash",
        "persistent_profile_path",
      ];
      const configs = ["run_config", "exec_config", "volume_mappings"];
      return {
        ...Object.fromEntries(settings.map((field) => [field, image[field]])),
        ...Object.fromEntries(configs.map((field) => [field, JSON.stringify(image[field])])),
        docker_token: TOKEN,
      };
    }

    it("changes the description", async () => {
      const id = await freshImage();
      const res = await emulators.product.call("update_image", { target_image: { ...(await wholeRecord(id)), description: "Only words" } }, creds("modify"));
      expect(res.status).toBe(200);
      expect(res.body.image.description).toBe("Only words");
    });

    it.each([
      ["memory", { memory: 4096000000 }],
      ["cores", { cores: 4 }],
      ["the GPU count", { gpu_count: 1 }],
      ["the registry", { docker_registry: "https://registry.example.org/" }],
      ["the registry password", { docker_token: "another" }],
      ["the run config", { run_config: '{"privileged": true}' }],
      ["the exec config", { exec_config: '{"go": {"cmd": "ls"}}' }],
      ["the volume mappings", { volume_mappings: '{"/d": {"bind": "/d", "mode": "rw", "uid": 1000, "gid": 1000}}' }],
    ])("is refused a change of %s (403), and nothing changes", async (_what, change) => {
      const id = await freshImage();
      const before = await emulators.product.state();
      const res = await emulators.product.call("update_image", { target_image: { ...(await wholeRecord(id)), ...change } }, creds("modify"));
      expect(wire(res)).toEqual({ status: 403, body: { error_message: "Unauthorized." } });
      expect(await emulators.product.state()).toEqual(before);
    });

    it.each(["docker_registry", "hash", "run_config"])(
      "fails with 500 when %s is left out (1.15 reads each compute-related field), and nothing changes",
      async (field) => {
        const id = await freshImage();
        const { [field]: _left, ...rest } = await wholeRecord(id);
        const before = await emulators.product.state();
        expect(wire(await emulators.product.call("update_image", { target_image: { ...rest, description: "Only words" } }, creds("modify")))).toEqual({
          status: 500,
          body: "<html><body>An unhandled exception occurred check logs for details<body><html>",
        });
        expect(await emulators.product.state()).toEqual(before);
      },
    );

    it("counts the registry password sent back masked as a change (1.15 compares it with the stored one); with both permissions the mask keeps it", async () => {
      const id = await freshImage();
      // 1.15 answers a stored password as ten asterisks (its sanitized_string).
      const masked = { ...(await wholeRecord(id)), docker_token: "**********", description: "Only words" };
      expect((await emulators.product.call("update_image", { target_image: masked }, creds("modify"))).status).toBe(403);
      expect((await emulators.product.call("update_image", { target_image: masked }, creds("resources"))).status).toBe(200);
      expect((await emulators.product.state()).images[id].ctr_token).toBe(TOKEN);
    });

    it("checks nothing for a key with both permissions: a compute-related field may be left out", async () => {
      const id = await freshImage();
      expect((await emulators.product.call("update_image", { target_image: { image_id: id, description: "Only words" } }, creds("resources"))).status).toBe(
        200,
      );
    });

    it("may send compute-related fields unchanged; with Modify Resources they change", async () => {
      const id = await freshImage();
      expect((await emulators.product.call("update_image", { target_image: await wholeRecord(id) }, creds("modify"))).status).toBe(200);
      const res = await emulators.product.call("update_image", { target_image: { ...(await wholeRecord(id)), memory: 4096000000 } }, creds("resources"));
      expect(res.body.image.memory).toBe(4096000000);
    });

    it("Images Modify Resources alone lets the call in, but a compute change needs both (1.15)", async () => {
      const id = await freshImage();
      expect(
        (await emulators.product.call("update_image", { target_image: { ...(await wholeRecord(id)), description: "x" } }, creds("resources-only"))).status,
      ).toBe(200);
      expect((await emulators.product.call("update_image", { target_image: { ...(await wholeRecord(id)), cores: 8 } }, creds("resources-only"))).status).toBe(
        403,
      );
    });
  });
});

describe("delete_image", () => {
  it("deletes an image and answers {}; what refers to it goes too", async () => {
    const id = (await emulators.product.call("create_image", { target_image: { name: "kasmweb/doomed:1" } })).body.image.image_id;
    await emulators.product.call("add_images_group", { target_group: { group_id: ENGINEERING }, target_image: { image_id: id } });
    const alice = await emulators.product.userId("alice");
    await emulators.product.call("update_user_attributes", { target_user_attributes: { user_id: alice, default_image: id } });
    await emulators.product.call("create_staging_config", { target_staging_config: { zone_id: ZONE, image_id: id, num_sessions: 1, expiration: 1 } });
    expect(wire(await emulators.product.call("delete_image", { target_image: { image_id: id } }))).toEqual({ status: 200, body: {} });
    const state = await emulators.product.state();
    expect(state.images[id]).toBeUndefined();
    expect(Object.values<{ image_id: string }>(state.groupImages).filter((gi) => gi.image_id === id)).toEqual([]);
    expect(Object.values<{ image_id: string }>(state.stagingConfigs).filter((c) => c.image_id === id)).toEqual([]);
    expect(state.userAttributes[alice].default_image).toBeNull();
  });

  it.each([
    ["no target_image", {}, "Invalid Request: Missing required parameters"],
    ["no image_id", { target_image: {} }, "Invalid Request: Missing required parameters"],
    ["an unknown image", { target_image: { image_id: UNKNOWN } }, `Image(${UNKNOWN}) Does not Exist`],
    [
      "an image a cast config launches",
      { target_image: { image_id: CHROME } },
      "Image (Chrome): ID (1b000000-0000-0000-0000-000000000001) currently has (1) associated Casting Config(s) and cannot be deleted",
    ],
    [
      "an image a session runs",
      { target_image: { image_id: TERMINAL } },
      "Image (Terminal): ID (1b000000-0000-0000-0000-000000000002) currently has (1) associated Kasm(s) and cannot be deleted",
    ],
  ])("refuses %s with HTTP 200 and changes nothing", async (_what, body, message) => {
    const before = await emulators.product.state();
    expect(wire(await emulators.product.call("delete_image", body))).toEqual({ status: 200, body: { error_message: message } });
    expect(await emulators.product.state()).toEqual(before);
  });
});

describe("workspaces without a container image (a link, a server pool)", () => {
  const LINK = "1c000000000000000000000000000001";
  const POOLED = "1c000000000000000000000000000002";
  const POOL = "50000000000000000000000000000001";
  const seed = {
    serverPools: [{ server_pool_id: POOL, server_pool_name: "Lab" }],
    groups: [{ name: "Engineering" }],
    images: [
      { image_id: LINK, friendly_name: "Intranet", image_type: "Link", link_url: "https://intranet.example.org", groups: ["Engineering"] },
      { image_id: POOLED, friendly_name: "Lab desktops", image_type: "Server Pool", server_pool_name: "Lab" },
    ],
  };
  const nameless = emulatorsInBothVocabularies(seed);

  it("the seed holds them with a null name, and get_images answers them so in product mode, the pool by name", async () => {
    const { images } = (await nameless.product.call("get_images", {})).body;
    expect(images.find((i: { image_id: string }) => i.image_id === LINK)).toMatchObject({
      name: null,
      friendly_name: "Intranet",
      image_type: "Link",
      link_url: "https://intranet.example.org",
      image_src: null,
      server_pool: {},
    });
    expect(images.find((i: { image_id: string }) => i.image_id === POOLED)).toMatchObject({
      name: null,
      image_type: "Server Pool",
      server_pool_id: POOL,
      server_pool: { server_pool_name: "Lab" },
    });
    // get_images_group names the link by its friendly name; its image_name is null.
    const engineering = Object.values<{ group_id: string; name: string }>((await nameless.product.state()).groups).find((g) => g.name === "Engineering")!;
    const authorised = (await nameless.product.call("get_images_group", { target_group: { group_id: engineering.group_id } })).body.images;
    expect(authorised).toEqual([expect.objectContaining({ image_id: LINK, image_name: null, image_friendly_name: "Intranet" })]);
  });

  it("spec mode lists them with a null name too", async () => {
    const { images } = (await nameless.spec.call("get_images", {})).body;
    expect(images.map((i: { name: string | null; friendly_name: string }) => [i.friendly_name, i.name])).toEqual([
      ["Intranet", null],
      ["Lab desktops", null],
    ]);
  });

  it("a Container image needs its name (the product's admin UI asks for it only for a Container), and a pool must be the seed's", async () => {
    const { storeFromSeed } = await import("../../emulator/seed");
    expect(() => storeFromSeed({ images: [{ friendly_name: "Nothing" }] })).toThrow(
      "seed: images[0]: name (the container image) is required for a Container image; a Link, Server or Server Pool workspace (image_type) has none",
    );
    expect(() => storeFromSeed({ images: [{ friendly_name: "Pooled", image_type: "Server Pool", server_pool_name: "Nowhere" }] })).toThrow(
      'seed: images[0].server_pool_name: unknown server pool "Nowhere"',
    );
  });
});

describe("require_gpu, which 1.15 takes and does not store", () => {
  const gpu = emulatorsInBothVocabularies({
    images: [{ image_id: "1d000000000000000000000000000001", name: "kasmweb/cuda:1", friendly_name: "CUDA", require_gpu: true }],
  });

  it("create_image answers the default (false) for require_gpu true; update_image keeps the stored value, whatever it is sent", async () => {
    const made = await gpu.product.call("create_image", { target_image: { name: "kasmweb/gpu:1", friendly_name: "GPU", require_gpu: true, gpu_count: 1 } });
    expect(made.status).toBe(200);
    expect(made.body.image).toMatchObject({ require_gpu: false, gpu_count: 1 });
    const seeded = (await gpu.product.call("get_image", { image_id: "1d000000000000000000000000000001" })).body.image;
    const res = await gpu.product.call("update_image", { target_image: { image_id: seeded.image_id, require_gpu: false, description: "changed" } });
    expect(res.body.image).toMatchObject({ require_gpu: true, description: "changed" });
  });
});

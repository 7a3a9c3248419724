/**
 * The product's group image authorisations (get_images_group, add_images_group,
 * remove_images_group) over HTTP in product mode: answers, 1.15's refusals (HTTP 200 with an
 * `error_message`), Groups Modify System for a system group, spec mode's 404s, and the seed's
 * `images[].groups`.
 */
import { describe, expect, it } from "vitest";
import type { OperationName, PermissionName } from "../../permissions";
import { storeFromSeed } from "../../emulator/seed";
import { startTestEmulator, wire } from "../helpers/emulator";
import { emulatorsInBothVocabularies } from "../helpers/emulator-pair";

const CHROME = "1b000000000000000000000000000001";
const TERMINAL = "1b000000000000000000000000000002";
const ALL_USERS = "90000000000000000000000000000001";
const ENGINEERING = "e0e0e0e0e0e04e0e0e0e0e0e0e0e0003";
const SALES = "c0c0c0c0c0c04c0c0c0c0c0c0c0c0004";
const UNKNOWN = "ffffffffffffffffffffffffffffffff";

const GROUP_IMAGE_OPERATIONS: OperationName[] = ["get_images_group", "add_images_group", "remove_images_group"];

const key = (name: string, permissions: PermissionName[]) => ({ name, key: `key-${name}`, secret: `secret-${name}`, permissions });
const creds = (name: string) => ({ key: `key-${name}`, secret: `secret-${name}` });

const SEED = {
  apiKeys: [key("groups", ["Groups View", "Groups Modify"]), key("images", ["Images View", "Images Modify"])],
  groups: [
    { group_id: ALL_USERS, name: "All Users" },
    { group_id: ENGINEERING, name: "Engineering" },
    { group_id: SALES, name: "Sales" },
  ],
  images: [
    { image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", groups: ["Engineering", "All Users"] },
    { image_id: TERMINAL, name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
  ],
};

const emulators = emulatorsInBothVocabularies(SEED);

const pair = (groupId: unknown, imageId: unknown) => ({ target_group: { group_id: groupId }, target_image: { image_id: imageId } });
const imagesOf = async (groupId: string) =>
  (await emulators.product.call("get_images_group", { target_group: { group_id: groupId } })).body.images as { image_id: string }[];

describe("which mode serves the group image operations", () => {
  it.each(GROUP_IMAGE_OPERATIONS)("spec mode answers %s as an unknown operation", async (operation) => {
    expect(wire(await emulators.spec.call(operation, pair(ENGINEERING, CHROME)))).toEqual({
      status: 404,
      body: { error_message: `Unknown API path (/api/public/${operation})` },
    });
  });
});

describe("get_images_group", () => {
  it("answers {images} with each authorisation, its image's names and its group's (seeded from images[].groups)", async () => {
    const res = await emulators.product.call("get_images_group", { target_group: { group_id: ENGINEERING } });
    expect(wire(res)).toEqual({
      status: 200,
      body: {
        images: [
          {
            group_image_id: expect.stringMatching(/^[0-9a-f]{32}$/),
            group_id: ENGINEERING,
            image_id: CHROME,
            image_name: "kasmweb/chrome:1.16.0",
            group_name: "Engineering",
            image_friendly_name: "Chrome",
            image_src: "img/thumbnails/kasmweb_chrome_1_16_0.png",
          },
        ],
      },
    });
    expect(await imagesOf(SALES)).toEqual([]);
  });

  it.each([
    ["no target_group", {}, "Invalid Request: Missing group id"],
    ["an empty group_id", { target_group: { group_id: "" } }, "Invalid Request: Missing group id"],
    ["an unknown group", { target_group: { group_id: UNKNOWN } }, "Request group does not exist"],
  ])("refuses %s with HTTP 200", async (_what, body, message) => {
    expect(wire(await emulators.product.call("get_images_group", body))).toEqual({ status: 200, body: { error_message: message } });
  });

  it("of a system group needs Groups View System; without Groups View it is refused", async () => {
    expect(wire(await emulators.product.call("get_images_group", { target_group: { group_id: ALL_USERS } }, creds("groups")))).toEqual({
      status: 403,
      body: { error_message: "Unauthorized." },
    });
    expect(wire(await emulators.product.call("get_images_group", { target_group: { group_id: ENGINEERING } }, creds("images")))).toEqual({
      status: 403,
      body: { error_message: "Unauthorized." },
    });
  });
});

describe("add_images_group and remove_images_group", () => {
  it("add authorises a group for an image and answers {}; remove takes it away", async () => {
    expect(wire(await emulators.product.call("add_images_group", pair(SALES, TERMINAL), creds("groups")))).toEqual({ status: 200, body: {} });
    expect((await imagesOf(SALES)).map((gi) => gi.image_id)).toEqual([TERMINAL]);
    expect(wire(await emulators.product.call("remove_images_group", pair(SALES, TERMINAL), creds("groups")))).toEqual({ status: 200, body: {} });
    expect(await imagesOf(SALES)).toEqual([]);
  });

  it("a second add of the same pair adds a second authorisation, and a remove takes one (1.15)", async () => {
    await emulators.product.call("add_images_group", pair(SALES, CHROME));
    await emulators.product.call("add_images_group", pair(SALES, CHROME));
    expect((await imagesOf(SALES)).map((gi) => gi.image_id)).toEqual([CHROME, CHROME]);
    await emulators.product.call("remove_images_group", pair(SALES, CHROME));
    expect((await imagesOf(SALES)).map((gi) => gi.image_id)).toEqual([CHROME]);
    await emulators.product.call("remove_images_group", pair(SALES, CHROME));
  });

  it("remove of a pair that is not authorised answers {} and changes nothing", async () => {
    const before = await emulators.product.state();
    expect(wire(await emulators.product.call("remove_images_group", pair(SALES, TERMINAL)))).toEqual({ status: 200, body: {} });
    expect(await emulators.product.state()).toEqual(before);
  });

  it.each(["add_images_group", "remove_images_group"] as const)(
    "%s refuses missing ids with HTTP 200, and a system group without Groups Modify System",
    async (operation) => {
      const before = await emulators.product.state();
      const missing = { status: 200, body: { error_message: "Invalid request, missing group or image id" } };
      expect(wire(await emulators.product.call(operation, {}))).toEqual(missing);
      expect(wire(await emulators.product.call(operation, { target_group: { group_id: SALES } }))).toEqual(missing);
      expect(wire(await emulators.product.call(operation, { target_group: {}, target_image: { image_id: CHROME } }))).toEqual(missing);
      // An unknown group or image: remove refuses it, add fails on it (test/emulator/product-failures.test.ts).
      if (operation === "remove_images_group") {
        const unknown = { status: 200, body: { error_message: "Group or image does not exist" } };
        expect(wire(await emulators.product.call(operation, pair(UNKNOWN, CHROME)))).toEqual(unknown);
        expect(wire(await emulators.product.call(operation, pair(SALES, UNKNOWN)))).toEqual(unknown);
      }
      expect(wire(await emulators.product.call(operation, pair(ALL_USERS, TERMINAL), creds("groups")))).toEqual({
        status: 403,
        body: { error_message: "Unauthorized." },
      });
      expect(wire(await emulators.product.call(operation, pair(SALES, TERMINAL), creds("images")))).toEqual({
        status: 403,
        body: { error_message: "Unauthorized." },
      });
      expect(await emulators.product.state()).toEqual(before);
    },
  );

  it("a deleted group takes its authorisations with it", async () => {
    const created = await emulators.product.call("create_group", { target_group: { name: "Short-lived", priority: 50 } });
    const groupId = created.body.group.group_id;
    await emulators.product.call("add_images_group", pair(groupId, TERMINAL));
    await emulators.product.call("delete_group", { target_group: { group_id: groupId } });
    const left = Object.values<{ group_id: string }>((await emulators.product.state()).groupImages).filter((gi) => gi.group_id === groupId);
    expect(left).toEqual([]);
  });
});

describe("the seed", () => {
  it("refuses an image's group that the seed does not have, naming the entry", () => {
    expect(() => storeFromSeed({ images: [{ name: "kasmweb/x:1", groups: ["Nobody"] }] })).toThrow('seed: images[0].groups[0]: unknown group "Nobody"');
  });

  it("holds the product's image fields and answers them in product mode, the password masked", async () => {
    const seeded = await startTestEmulator(
      {
        images: [
          {
            image_id: CHROME,
            name: "kasmweb/chrome:1.16.0",
            categories: ["Browser"],
            run_config: { hostname: "kasm" },
            volume_mappings: { "/data": { bind: "/data", mode: "rw", uid: 1000, gid: 1000 } },
            ctr_registry: "https://registry.example.org/",
            ctr_user: "puller",
            ctr_token: "seeded-secret",
            uncompressed_size_mb: 1500,
            image_type: "Container",
            gpu_count: 1,
            require_gpu: true,
            cpu_allocation_method: "Quotas",
          },
        ],
      },
      { apiNames: "product" },
    );
    try {
      const image = (await seeded.call("get_image", { image_id: CHROME })).body.image;
      expect(image).toMatchObject({
        categories: ["Browser"],
        run_config: { hostname: "kasm" },
        volume_mappings: { "/data": { bind: "/data", mode: "rw", uid: 1000, gid: 1000 } },
        docker_registry: "https://registry.example.org/",
        docker_user: "puller",
        docker_token: "**********",
        uncompressed_size_mb: 1500,
        gpu_count: 1,
        require_gpu: true,
        cpu_allocation_method: "Quotas",
      });
    } finally {
      await seeded.close();
    }
  });
});

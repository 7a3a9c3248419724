/**
 * emulator/README.md followed as written: the example of "Seed file" holds every section of the
 * seed schema and an emulator starts from it as it is; then every line of "Creating objects over
 * the API" is sent to that emulator in order (the `curl -d` bodies as curl sends them, the batch
 * lines as multipart with the CSV their `printf` line writes), each answers 200 without an
 * `error_message`, and what it created is then read back over the API. The product's operations
 * go to an emulator started from the same seed in product mode. The section must cover every
 * create operation of the catalogue and every operation of the product's workspaces (images) and
 * group authorisations (but create_registry, which fetches from a registry's site the reader
 * serves: product-registries.test.ts runs it).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, isSpecOperation, type OperationName } from "../../permissions";
import { Seed } from "../../emulator/seed";
import { startEmulator, type RunningEmulator } from "../../emulator/server";

const README = readFileSync(path.resolve(__dirname, "../../emulator/README.md"), "utf8");

/** The text of the README's `## <heading>` section, up to the next `## ` heading. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`emulator/README.md has no "## ${heading}" section`);
  const end = README.indexOf("\n## ", start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

const SEED_SECTION = section("Seed file");
const SEED_JSON = /```json\n([\s\S]*?)```/.exec(SEED_SECTION)?.[1];
const CURL_LINES = [...section("Creating objects over the API").matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].trim().split("\n"));
const README_ADDRESS = "http://127.0.0.1:8443";

/** One request of the section: an operation, its query, headers and body, as curl would send them. */
interface CurlRequest {
  operation: OperationName;
  query: string;
  headers: Record<string, string>;
  body: string;
}

/** The section's lines as requests: `printf '...' > FILE` writes a file that a later `-F file_content=@FILE` sends. */
function curlRequests(lines: string[]): CurlRequest[] {
  const files = new Map<string, string>();
  const requests: CurlRequest[] = [];
  for (const line of lines) {
    const printf = /^printf '([^']*)' > (\S+)$/.exec(line);
    if (printf) {
      files.set(printf[2], printf[1].replace(/\\n/g, "\n"));
      continue;
    }
    const curl = /^curl -s '?([^' ]+)'? (.*)$/.exec(line);
    if (!curl) throw new Error(`a line of "Creating objects over the API" is neither curl nor printf: ${line}`);
    const url = new URL(curl[1]);
    expect(`${url.protocol}//${url.host}`, line).toBe(README_ADDRESS);
    const operation = /^\/api\/public\/([a-z_]+)$/.exec(url.pathname)?.[1] as OperationName;
    expect(Object.keys(OPERATIONS), line).toContain(operation);
    const rest = curl[2];
    const json = /^-d '(.*)'$/.exec(rest);
    if (json) {
      requests.push({ operation, query: url.search, headers: { "content-type": "application/x-www-form-urlencoded" }, body: json[1] });
      continue;
    }
    const multipart = /^((?:-H '[^']+' )+)-F file_content=@(\S+)$/.exec(rest);
    if (!multipart) throw new Error(`a curl line the test cannot follow: ${line}`);
    const headers = Object.fromEntries([...multipart[1].matchAll(/-H '([^:]+): ([^']+)'/g)].map((h) => [h[1].toLowerCase(), h[2]]));
    const csv = files.get(multipart[2]);
    if (csv === undefined) throw new Error(`${multipart[2]} is sent before a printf line writes it`);
    const boundary = "----readme-curl";
    headers["content-type"] = `multipart/form-data; boundary=${boundary}`;
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file_content"; filename="${multipart[2]}"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    requests.push({ operation, query: url.search, headers, body });
  }
  return requests;
}

let spec: RunningEmulator;
let product: RunningEmulator;
let seed: Record<string, unknown>;

beforeAll(async () => {
  if (SEED_JSON === undefined) throw new Error('"Seed file" in emulator/README.md has no ```json example');
  seed = JSON.parse(SEED_JSON);
  spec = await startEmulator({ port: 0, seed: seed as never });
  product = await startEmulator({ port: 0, seed: seed as never, apiNames: "product" });
});
afterAll(async () => {
  await spec?.close();
  await product?.close();
});

/** Call an operation on `emulator` with the seed's admin key, answering status and JSON body. */
async function call(emulator: RunningEmulator, operation: OperationName, body: Record<string, unknown> = {}) {
  const res = await request(`${emulator.url}${OPERATIONS[operation].path}`, {
    method: OPERATIONS[operation].method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: "admin-key", api_key_secret: "admin-secret", ...body }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

describe("emulator/README.md, Seed file", () => {
  it("the example holds every section of the seed schema", () => {
    expect(Object.keys(seed).sort()).toEqual(Object.keys(Seed.shape).sort());
    for (const [key, value] of Object.entries(seed)) if (Array.isArray(value)) expect(value.length, `${key} has no entry`).toBeGreaterThan(0);
  });

  it("an emulator started from the example serves what it holds", async () => {
    const bob = await call(spec, "get_user", { target_user: { username: "bob" } });
    expect(bob.status).toBe(200);
    expect(bob.body.user.groups.map((g: { name: string }) => g.name).sort()).toEqual(["All Users", "Engineering"]);
    const attributes = await call(spec, "get_attributes", { target_user: { user_id: bob.body.user.user_id } });
    expect(attributes.body.user_attributes).toMatchObject({ default_image: "1b000000000000000000000000000001", show_tips: false, auto_login_ws: true });
    expect((await call(spec, "get_staging_configs")).body.staging_configs).toHaveLength(1);
    expect((await call(product, "get_cast_configs")).body.cast_configs.map((c: { key: string }) => c.key)).toEqual(["lobby"]);
    expect((await call(spec, "get_egress_provider_mapping")).body.egress_provider_mappings).toHaveLength(1);
    expect((await call(spec, "get_egress_credentials")).body.egress_credentials.map((c: { name: string }) => c.name)).toEqual(["bob-wireguard"]);
  });
});

describe("emulator/README.md, Creating objects over the API", () => {
  it("shows every create operation of the catalogue, and every product image operation", () => {
    const requests = curlRequests(CURL_LINES);
    const shown = (Object.keys(OPERATIONS) as OperationName[]).filter(
      // create_registry fetches from a registry's site, which the reader serves: shown in "Workspace registries" instead.
      (op) => (/^(batch_)?create_/.test(op) && op !== "create_registry") || (!isSpecOperation(op) && op.includes("image")),
    );
    expect(shown.filter((op) => !requests.some((r) => r.operation === op))).toEqual([]);
  });

  it("every line answers 200 without an error_message, in order, and creates what it says", async () => {
    for (const r of curlRequests(CURL_LINES)) {
      const emulator = isSpecOperation(r.operation) ? spec : product;
      const res = await request(`${emulator.url}/api/public/${r.operation}${r.query}`, { method: "POST", headers: r.headers, body: r.body });
      const text = await res.body.text();
      expect({ operation: r.operation, status: res.statusCode }, text).toEqual({ operation: r.operation, status: 200 });
      expect(JSON.parse(text).error_message ?? null, `${r.operation}: ${text}`).toBeNull();
    }

    const dave = await call(spec, "get_user", { target_user: { username: "dave" } });
    expect(dave.body.user).toMatchObject({ first_name: "Dave", organization: "Example Ltd" });
    const bob = (await call(spec, "get_user", { target_user: { username: "bob" } })).body.user;
    expect(bob.groups.map((g: { name: string }) => g.name).sort()).toEqual(["All Users", "Contractors", "Engineering"]);
    expect(bob.assigned_servers.map((s: { hostname: string }) => s.hostname)).toEqual(["ws2.example.org"]);
    expect((await call(spec, "get_attributes", { target_user: { user_id: bob.user_id } })).body.user_attributes).toMatchObject({
      default_image: "1b000000000000000000000000000002",
      show_tips: true,
      toggle_control_panel: false,
    });
    const staging = (await call(spec, "get_staging_configs")).body.staging_configs;
    expect(staging.map((c: { image_friendly_name: string }) => c.image_friendly_name).sort()).toEqual(["Chrome", "Terminal"]);
    // The spec has no read of cast configs: product mode's get_cast_configs reads the other emulator's
    // seed, so the spec emulator's state shows the new one.
    const state = (await (await request(`${spec.url}/__emulator/state`)).body.json()) as any;
    expect(
      Object.values(state.castConfigs)
        .map((c: any) => c.key)
        .sort(),
    ).toEqual(["lobby", "support"]);
    expect((await call(spec, "get_egress_providers")).body.egress_providers.map((p: { name: string }) => p.name).sort()).toEqual(["Office VPN", "Travel VPN"]);
    expect((await call(spec, "get_egress_gateways")).body.egress_gateways.map((g: { name: string }) => g.name).sort()).toEqual(["Amsterdam", "Frankfurt"]);
    expect((await call(spec, "get_egress_provider_mapping")).body.egress_provider_mappings).toHaveLength(2);
    expect((await call(spec, "get_egress_credentials")).body.egress_credentials.map((c: { name: string }) => c.name).sort()).toEqual([
      "bob-wireguard",
      "engineering-wireguard",
    ]);
    const erin = (await call(spec, "get_user", { target_user: { username: "erin" } })).body.user;
    expect(erin.groups.map((g: { name: string }) => g.name).sort()).toEqual(["All Users", "Contractors"]);
    expect(Object.values(state.servers).map((s: any) => s.hostname)).toContain("ws3.example.org");
    const groups = (await call(product, "get_groups")).body.groups.map((g: { name: string }) => g.name);
    expect(groups).toContain("Support");
    // The image lines ran on the product-mode emulator: VS Code was created, Firefox changed, then deleted.
    const images = (await call(product, "get_images")).body.images.map((i: { friendly_name: string }) => i.friendly_name);
    expect(images.sort()).toEqual(["Chrome", "Terminal", "VS Code"]);
    expect((await call(product, "get_images_group", { target_group: { group_id: "c0c0c0c0c0c04c0c0c0c0c0c0c0c0004" } })).body.images).toEqual([]);
  });
});

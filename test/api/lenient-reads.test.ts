/**
 * Lenient reads as an option of the client (`client.readingLeniently(notes)`), against a scripted
 * server that answers in the released product's names while the client is configured `spec`: a
 * view notes the mismatch where the client fails, both share one connection, and a read that a
 * strict and a lenient caller share (one request in flight, or one snapshot of user pages) is
 * taken by each caller its own way.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { KasmVocabularyError, createKasmClient, type KasmClient, type LenientReads } from "../../provider/api";
import { startLocalServer, userRecord, type LocalServer, type RecordedRequest } from "./local-server";

const ZONE = "0123456789abcdef0123456789abcd01";
const IMAGE = "0123456789abcdef0123456789abcd02";
const CONFIG_ID = "0123456789abcdef0123456789abcd03";
/** Three users: two reads go to get_user before a third takes a snapshot of get_users pages (DIRECT_READS). */
const USERS = ["ada", "grace", "lin"].map((name, i) => ({ ...userRecord(name, `0123456789abcdef0123456789abcd1${i}`), kasms: [] }));

let server: LocalServer;
const clients: KasmClient[] = [];
beforeAll(async () => {
  server = await startLocalServer();
});
afterEach(async () => {
  // A test may have closed its client through a view.
  await Promise.all(
    clients
      .splice(0)
      .filter((c) => !c.closed)
      .map((c) => c.close()),
  );
  server.requests.length = 0;
  server.fallback = () => ({ status: 200, body: {} });
});
afterAll(() => server.close());

/** A client configured `spec`, against the server that answers in the product's names. */
function client(): KasmClient {
  const made = createKasmClient({ baseUrl: server.url, apiKey: "k", apiKeySecret: "lenient-secret-Jr4", maxRetries: 0, apiNames: "spec" }, {});
  clients.push(made);
  return made;
}

function notes(): LenientReads {
  return { mismatches: [] };
}

/** The product's answers: a staging config and user records, each showing the product's names. */
function productAnswers(request: RecordedRequest) {
  if (request.operation === "get_users") return { status: 200, body: { users: USERS, total: USERS.length } };
  if (request.operation === "get_user") return { status: 200, body: { user: USERS.find((u) => u.user_id === request.json.target_user.user_id) } };
  return {
    status: 200,
    body: { staging_config: { staging_config_id: CONFIG_ID, zone_id: ZONE, image_id: IMAGE, num_sessions: 1, expiration: 2, allow_kasm_audio: true } },
  };
}

describe("a lenient view of a client", () => {
  it("notes a read's mismatch once per message, where the client fails it", async () => {
    server.fallback = productAnswers;
    const kasm = client();
    await expect(kasm.staging.getStagingConfig({ staging_config_id: CONFIG_ID })).rejects.toBeInstanceOf(KasmVocabularyError);
    const noted = notes();
    const view = kasm.readingLeniently(noted);
    await expect(view.staging.getStagingConfig({ staging_config_id: CONFIG_ID })).resolves.toMatchObject({ allow_ws_audio: true });
    await view.staging.getStagingConfig({ staging_config_id: CONFIG_ID });
    expect(noted.mismatches).toHaveLength(1);
    expect(noted.mismatches[0]).toContain("get_staging_config");
  });

  it("fails a write all the same, noting nothing", async () => {
    server.fallback = productAnswers;
    const noted = notes();
    const view = client().readingLeniently(noted);
    const write = view.staging.updateStagingConfig({ staging_config_id: CONFIG_ID, allow_ws_audio: true });
    await expect(write).rejects.toBeInstanceOf(KasmVocabularyError);
    expect(noted.mismatches).toEqual([]);
  });

  it("shares the client's connection: its write generation, and its closing", async () => {
    const kasm = client();
    const view = kasm.readingLeniently(notes());
    await kasm.staging.updateStagingConfig({ staging_config_id: CONFIG_ID, num_sessions: 2 }).catch(() => undefined);
    expect(view.transport.writeGeneration).toBe(kasm.transport.writeGeneration);
    expect(view.transport.writeGeneration).toBeGreaterThan(0);
    await view.close();
    expect(kasm.closed).toBe(true);
  });
});

describe("one read, a strict and a lenient caller", () => {
  for (const lenientFirst of [false, true]) {
    it(`one request in flight (${lenientFirst ? "lenient" : "strict"} caller first): the strict caller fails, the lenient one notes it`, async () => {
      server.fallback = productAnswers;
      const kasm = client();
      const noted = notes();
      const view = kasm.readingLeniently(noted);
      const read = (through: KasmClient) => through.staging.getStagingConfig({ staging_config_id: CONFIG_ID });
      const [strict, lenient] = lenientFirst
        ? await Promise.allSettled([read(view), read(kasm)]).then(([l, s]) => [s, l])
        : await Promise.allSettled([read(kasm), read(view)]);
      expect(server.operations()).toEqual(["get_staging_config"]);
      expect(strict.status === "rejected" && strict.reason).toBeInstanceOf(KasmVocabularyError);
      expect(lenient.status === "fulfilled" && lenient.value).toMatchObject({ allow_ws_audio: true });
      expect(noted.mismatches).toHaveLength(1);
    });
  }

  it("one snapshot of user pages, taken by a lenient read: each lenient reader notes it, a strict one fails", async () => {
    server.fallback = productAnswers;
    const kasm = client();
    const [first, second, third] = [notes(), notes(), notes()];
    // Two reads go to get_user; the third of the burst takes the snapshot, which the others join.
    await kasm.readingLeniently(first).userReads.read(USERS[0].user_id);
    await kasm.readingLeniently(first).userReads.read(USERS[1].user_id);
    const [taker, strict, joiner] = await Promise.allSettled([
      kasm.readingLeniently(second).userReads.read(USERS[2].user_id),
      kasm.userReads.read(USERS[1].user_id),
      kasm.readingLeniently(third).userReads.read(USERS[0].user_id),
    ]);
    expect(server.operations().filter((operation) => operation === "get_users")).toHaveLength(1);
    expect(taker.status === "fulfilled" && taker.value).toMatchObject({ username: "lin" });
    expect(joiner.status === "fulfilled" && joiner.value).toMatchObject({ username: "ada" });
    for (const noted of [second, third]) expect(noted.mismatches).toEqual([expect.stringContaining("get_users")]);
    // The strict reader reads its user with get_user, which fails on the mismatch as the page would have.
    expect(strict.status === "rejected" && strict.reason).toBeInstanceOf(KasmVocabularyError);
    expect(server.operations().at(-1)).toBe("get_user");
  });
});

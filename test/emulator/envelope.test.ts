/**
 * The envelope of the API: health check, JSON bodies, methods, unknown paths, malformed input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ zones: [{ zone_name: "default" }] });
});
afterAll(() => emulator.close());

describe("envelope", () => {
  it("answers the health check with {ok: true}", async () => {
    const res = await emulator.raw("GET", "/api/__healthcheck");
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
  });

  it("reads the egress providers with GET and a JSON body", async () => {
    const res = await emulator.call("get_egress_providers");
    expect(res).toMatchObject({ status: 200, body: { egress_providers: [] } });
  });

  it("refuses a POST to a GET operation with 405 naming the method to use", async () => {
    const res = await emulator.raw("POST", "/api/public/get_egress_providers", { body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET");
    expect(res.body.error_message).toContain("use GET");
  });

  it("answers malformed JSON with 400", async () => {
    const res = await emulator.raw("POST", "/api/public/get_users", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(res).toEqual(expect.objectContaining({ status: 400, body: { error_message: "Invalid Request: the body is not valid JSON" } }));
  });

  it("answers a body that is not an object with 400", async () => {
    const res = await emulator.raw("POST", "/api/public/get_users", { body: "[1,2]", headers: { "content-type": "application/json" } });
    expect(res).toMatchObject({ status: 400, body: { error_message: "Invalid Request: the body must be a JSON object" } });
  });

  it("answers an oversized body with 400, not 413", async () => {
    const res = await emulator.raw("POST", "/api/public/get_users", {
      body: JSON.stringify({ api_key: "x", padding: "x".repeat(2 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_message).toMatch(/larger than the limit/);
  });

  it("answers an unknown path with 404 and an error_message", async () => {
    const res = await emulator.raw("POST", "/api/public/no_such_operation", { body: "{}" });
    expect(res).toMatchObject({ status: 404, body: { error_message: "Unknown API path (/api/public/no_such_operation)" } });
    // The request log (`--verbose`) has it too, with the method and the path.
    expect(emulator.requests).toContain("POST /api/public/no_such_operation 404 (no such operation)");
  });

  it("accepts a JSON body sent without a JSON content type, as curl -d sends it", async () => {
    const res = await emulator.raw("POST", "/api/public/get_zones", {
      body: JSON.stringify({ api_key: "admin-key", api_key_secret: "admin-secret" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.body.zones).toHaveLength(1);
  });
});

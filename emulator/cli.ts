#!/usr/bin/env node
/**
 * `kasm-emulator`: run the Kasm API emulator from the command line.
 *
 *   kasm-emulator --port 8443 --seed examples/seed.json [--data state.json] [--host 127.0.0.1]
 *                 [--tls-key key.pem --tls-cert cert.pem] [--observed-fields] [--api-names spec|product]
 *                 [--auth-answers 1.19|1.15] [--verbose]
 *
 * Prints one line with the URL once it accepts requests, and runs until SIGINT or SIGTERM.
 * `--help` lists every option with its default.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { AUTH_ANSWERS, type AuthAnswers } from "./errors";
import { readSeedFile, SeedError } from "./seed";
import { startEmulator } from "./server";
import { API_NAMES, type ApiNames } from "./vocabulary";

/** The environment variable that gives the port when `--port` is not given (`npm start` reads it too). */
const PORT_ENV = "KASM_EMULATOR_PORT";

const USAGE =
  "usage: kasm-emulator [--port N] [--host ADDR] [--seed seed.json] [--data state.json] [--tls-key key.pem --tls-cert cert.pem] [--observed-fields] [--api-names spec|product] [--auth-answers 1.19|1.15] [--verbose]";

const HELP = `${USAGE}

Run a local emulator of the Kasm Workspaces Developer API (1.19.0) for tests, examples and CI.
It prints one line with its URL once it accepts requests, and runs until Ctrl-C (SIGINT) or SIGTERM.

Options:
  --port N             port to listen on; 0 picks a free one (default: $${PORT_ENV}, else 0)
  --host ADDR          address to bind (default: 127.0.0.1; the emulator has no real security,
                       keep it on loopback)
  --seed FILE          JSON seed: API keys, groups, users, images, zones, servers, sessions,
                       activation keys (default: none, an empty Kasm with no API key, where
                       every API call answers 401)
  --data FILE          persist every change to FILE and resume from it when it exists; the
                       seed is then ignored (default: none, state lives in memory)
  --tls-key FILE       serve HTTPS with this PEM private key (with --tls-cert; default: HTTP)
  --tls-cert FILE      serve HTTPS with this PEM certificate (with --tls-key)
  --observed-fields    also send the fields the real product is known to return beyond the
                       spec (default: the seed's "observedFields", else off)
  --api-names NAMES    spec: the API documentation's names (allow_ws_audio, request_ws);
                       product: the released product's (allow_kasm_audio, request_kasm), its
                       answer shapes and its own operations (get_groups, create_group, ...)
                       (default: the seed's "apiNames", else spec)
  --auth-answers REL   1.19: refusals as the spec gives them (401 "Invalid user name or
                       password.", 403 "Unauthorized."); 1.15: as release 1.15 gave them
                       (403 "Access Denied", 401 "Access has expired", 401 "Unauthorized",
                       400 "Invalid Request") (default: the seed's "authAnswers", else 1.19)
  --verbose            one line per request on stderr: operation, status, milliseconds (a path
                       that is no operation: method, path, 404), never a body (default: off)
  --help               print this help and exit

Environment:
  ${PORT_ENV}   the port when --port is not given

A seed with one key that may do everything:
  { "apiKeys": [{ "name": "ci", "key": "ci-key", "secret": "ci-secret", "permissions": ["Global Admin"] }] }

Example:
  kasm-emulator --port 8443 --seed seed.json --data kasm-state.json
  curl -s http://127.0.0.1:8443/api/public/get_users -d '{"api_key":"ci-key","api_key_secret":"ci-secret"}'
`;

/**
 * How many API keys the emulator serves: from the data file when there is one (it replaces the
 * seed), else from the seed. A seed that cannot be read has already failed the start.
 */
function apiKeyCount(seed: string | undefined, dataFile: string | undefined): number {
  if (dataFile && existsSync(dataFile)) {
    const saved = JSON.parse(readFileSync(dataFile, "utf8")) as { apiKeys?: Record<string, unknown> };
    return Object.keys(saved.apiKeys ?? {}).length;
  }
  if (!seed) return 0;
  const keys = (readSeedFile(seed) as { apiKeys?: unknown }).apiKeys;
  return Array.isArray(keys) ? keys.length : 0;
}

/** The message for a port that cannot be listened on, naming the way out; undefined for other errors. */
function listenProblem(error: unknown, port: number, host: string): string | undefined {
  const code = (error as { code?: string })?.code;
  const where = `${host}:${port}`;
  const wayOut = `choose another port with --port N (or ${PORT_ENV}=N; --port 0 picks a free one)`;
  if (code === "EADDRINUSE")
    return `port ${port} on ${host} is already in use (another kasm-emulator, or \`npm start\`, may be running there): stop it, or ${wayOut}`;
  if (code === "EACCES") return `not allowed to listen on ${where} (ports below 1024 need privileges): ${wayOut}`;
  if (code === "EADDRNOTAVAIL") return `cannot listen on ${where}: ${host} is not an address of this machine; use --host 127.0.0.1 or another local address`;
  return undefined;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        seed: { type: "string" },
        data: { type: "string" },
        "tls-key": { type: "string" },
        "tls-cert": { type: "string" },
        "observed-fields": { type: "boolean" },
        "api-names": { type: "string" },
        "auth-answers": { type: "string" },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`kasm-emulator: ${(error as Error).message}\n${USAGE}\n(kasm-emulator --help lists every option)\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const fromEnv = process.env[PORT_ENV]?.trim() ? process.env[PORT_ENV]!.trim() : undefined;
  const rawPort = values.port ?? fromEnv ?? "0";
  const port = Number(rawPort);
  if (rawPort.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535) {
    const source = values.port !== undefined ? "--port" : PORT_ENV;
    process.stderr.write(`kasm-emulator: ${source} must be a number from 0 to 65535, got ${rawPort}\n`);
    process.exit(2);
  }
  if (!!values["tls-key"] !== !!values["tls-cert"]) {
    process.stderr.write("kasm-emulator: --tls-key and --tls-cert go together\n");
    process.exit(2);
  }
  const apiNames = values["api-names"];
  if (apiNames !== undefined && !API_NAMES.includes(apiNames as ApiNames)) {
    process.stderr.write(`kasm-emulator: --api-names must be ${API_NAMES.join(" or ")}, got ${apiNames}\n`);
    process.exit(2);
  }
  const authAnswers = values["auth-answers"];
  if (authAnswers !== undefined && !AUTH_ANSWERS.includes(authAnswers as AuthAnswers)) {
    process.stderr.write(`kasm-emulator: --auth-answers must be ${AUTH_ANSWERS.join(" or ")}, got ${authAnswers}\n`);
    process.exit(2);
  }
  const tls = values["tls-key"] ? { key: readFileSync(values["tls-key"]), cert: readFileSync(values["tls-cert"]!) } : undefined;
  let emulator;
  try {
    emulator = await startEmulator({
      port,
      host: values.host,
      seed: values.seed,
      dataFile: values.data,
      tls,
      // Absent: the seed's flag decides.
      observedFields: values["observed-fields"] ? true : undefined,
      apiNames: apiNames as ApiNames | undefined,
      authAnswers: authAnswers as AuthAnswers | undefined,
      log: values.verbose ? (line) => process.stderr.write(`${line}\n`) : undefined,
    });
  } catch (error) {
    const problem = listenProblem(error, port, values.host);
    if (problem === undefined) throw error;
    process.stderr.write(`kasm-emulator: ${problem}\n`);
    process.exit(1);
  }
  process.stdout.write(`kasm-emulator listening on ${emulator.url}\n`);
  if (apiKeyCount(values.seed, values.data) === 0) {
    const why = values.data
      ? `the data file ${values.data} holds none; it replaces the seed, so delete it to start again from a seed`
      : values.seed
        ? "the seed has no apiKeys"
        : "no --seed was given";
    // What an unknown key gets, in the answers the emulator gives.
    const refusal = emulator.authAnswers === "1.15" ? '403 "Access Denied"' : '401 "Invalid user name or password."';
    process.stderr.write(
      `kasm-emulator: warning: there is no API key (${why}), so every API call will answer ${refusal}. ` +
        `Restart with --seed FILE, a JSON file listing keys, such as ` +
        `{ "apiKeys": [{ "name": "ci", "key": "ci-key", "secret": "ci-secret", "permissions": ["Global Admin"] }] } ` +
        `(kasm-emulator --help shows the options)\n`,
    );
  }
  const running = emulator;
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const message = error instanceof SeedError ? error.message : ((error as Error)?.message ?? String(error));
  process.stderr.write(`kasm-emulator: ${message}\n`);
  process.exit(1);
});

#!/usr/bin/env node
/**
 * `kasm-emulator`: run the Kasm API emulator from the command line.
 *
 *   kasm-emulator --port 8443 --seed examples/seed.json [--data state.json] [--host 127.0.0.1]
 *                 [--tls-key key.pem --tls-cert cert.pem] [--observed-fields] [--verbose]
 *
 * Prints one line with the URL once it accepts requests, and runs until SIGINT or SIGTERM.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SeedError } from "./seed";
import { startEmulator } from "./server";

const USAGE =
  "usage: kasm-emulator [--port N] [--host ADDR] [--seed seed.json] [--data state.json] [--tls-key key.pem --tls-cert cert.pem] [--observed-fields] [--verbose]";

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", default: "0" },
        host: { type: "string", default: "127.0.0.1" },
        seed: { type: "string" },
        data: { type: "string" },
        "tls-key": { type: "string" },
        "tls-cert": { type: "string" },
        "observed-fields": { type: "boolean" },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`kasm-emulator: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`kasm-emulator: --port must be a number from 0 to 65535, got ${values.port}\n`);
    process.exit(2);
  }
  if (!!values["tls-key"] !== !!values["tls-cert"]) {
    process.stderr.write("kasm-emulator: --tls-key and --tls-cert go together\n");
    process.exit(2);
  }
  const tls = values["tls-key"] ? { key: readFileSync(values["tls-key"]), cert: readFileSync(values["tls-cert"]!) } : undefined;
  const emulator = await startEmulator({
    port,
    host: values.host,
    seed: values.seed,
    dataFile: values.data,
    tls,
    // Absent: the seed's flag decides.
    observedFields: values["observed-fields"] ? true : undefined,
    log: values.verbose ? (line) => process.stderr.write(`${line}\n`) : undefined,
  });
  process.stdout.write(`kasm-emulator listening on ${emulator.url}\n`);
  const stop = () => {
    emulator.close().then(
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

/**
 * `pulumi-resource-kasm`: the native provider plugin's entry point (bin/pulumi-resource-kasm runs
 * it with Node). The engine starts it with its own address as the first argument and reads the
 * port the plugin serves on from the first line of its stdout: that line is the only thing
 * written there; anything else goes to stderr, which the engine shows as the plugin's output.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { kinds } from "..";
import { engineAddressFromArgv } from "../engine-log";
import { refreshingLeniently } from "../resources/framework/lenient-refresh";
import { serveNativeProvider } from "./server";

/** This package's version, from the package.json above this file (dist/provider/native/ when built, provider/native/ from the sources). */
function packageVersion(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    const manifest = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string }) : {};
    if (manifest.name === "pulumi-kasm" && manifest.version !== undefined) return manifest.version;
  }
  throw new Error("pulumi-resource-kasm: the pulumi-kasm package.json was not found above the plugin");
}

/** Serve until the engine stops the process. */
async function main(argv: readonly string[]): Promise<void> {
  // The engine's address is its last argument, after the flags it may add (--logtostderr, --tracing <endpoint>).
  const engineAddress = engineAddressFromArgv(argv);
  // Each refresh reads through a wire-vocabulary mismatch and warns, as the dynamic provider's does.
  const server = await serveNativeProvider({ version: packageVersion(__dirname), kinds: refreshingLeniently(kinds), engineAddress });
  process.stdout.write(`${server.port}\n`);
  const stop = () => void server.close().finally(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main(process.argv).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-kasm: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

/**
 * The dynamic-provider host driver for this repository's tests: the shipped one (testing/host.ts),
 * started by default in the repository, where `pulumi-kasm/provider` resolves through the self link.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { ProviderHost as Host } from "../../testing/host";

export { HostError, type CheckResult, type DiffResult, type Props } from "../../testing/host";

const REPO = path.resolve(__dirname, "..", "..");

/** A running dynamic-provider host and a client for it. */
export type ProviderHost = Host;

/** {@link Host.start}, in the repository unless `cwd` says otherwise. */
export const ProviderHost = {
  async start(options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Host> {
    // The serialized providers load `pulumi-kasm/provider` by name; an `npm install` drops the
    // link that makes that name resolve inside this repository, so make sure it is there.
    if (!options.cwd) execFileSync(process.execPath, [path.join(REPO, "scripts", "link-self.js")]);
    return Host.start({ ...options, cwd: options.cwd ?? REPO });
  },
};

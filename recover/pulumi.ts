/**
 * The `pulumi` CLI as `kasm-recover` drives it: the stack's state and configuration, read and
 * written through the CLI's own commands (`stack export`, `stack import`, `config`, `refresh`,
 * `cancel`), so that every backend and secrets provider works as it does for the user.
 *
 * A state read with `--show-secrets` is only ever held in memory, to reach the installation (an
 * explicit provider's API key secret) and compare declared fields; what is written back is the
 * state as exported without it, whose secrets stay encrypted.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** One resource of an exported deployment, as far as recovery reads it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One pending operation of an exported deployment. */
export interface PendingOperation {
  type: string;
  resource: StateResource;
  [field: string]: unknown;
}

/** An exported stack (`pulumi stack export`): the parts recovery reads and edits, the rest kept as it is. */
export interface ExportedStack {
  version: number;
  deployment: {
    resources?: StateResource[];
    pending_operations?: PendingOperation[];
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** A `pulumi` command that failed: its words and what it printed. */
export class PulumiCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly output: string,
  ) {
    super(`\`pulumi ${args.join(" ")}\` failed:\n${output.trim()}`);
    this.name = "PulumiCommandError";
  }
}

/** The `pulumi` CLI in one program folder, for one stack. */
export class PulumiStack {
  /**
   * @param stack The stack's name, as `--stack` takes it.
   * @param cwd The program's folder (where Pulumi.yaml is).
   * @param env The environment of every command (the passphrase, the backend, the KASM_* settings).
   */
  constructor(
    readonly stack: string,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Run `pulumi <args>`; its standard output, or a {@link PulumiCommandError}. */
  run(args: readonly string[], options: { readonly withStack?: boolean } = {}): Promise<string> {
    const words = options.withStack === false ? [...args] : [...args, "--stack", this.stack];
    return new Promise((resolve, reject) => {
      execFile(
        "pulumi",
        [...words, "--non-interactive"],
        { cwd: this.cwd, env: this.env, maxBuffer: 1024 * 1024 * 1024, encoding: "utf8" },
        (error, stdout, stderr) => {
          // What a command that shows secrets printed is never repeated: only its errors are.
          if (error) reject(new PulumiCommandError(words, words.includes("--show-secrets") ? stderr : `${stdout}\n${stderr}`));
          else resolve(stdout);
        },
      );
    });
  }

  /** The backend's URL (`file:///...`, `s3://...`, `https://api.pulumi.com`). */
  async backendUrl(): Promise<string> {
    const who = JSON.parse(await this.run(["whoami", "--json"], { withStack: false })) as { url?: string };
    return who.url ?? "";
  }

  /** The state, its secrets encrypted: what {@link importState} writes back. */
  async exportState(): Promise<ExportedStack> {
    return JSON.parse(await this.run(["stack", "export"])) as ExportedStack;
  }

  /** The state with its secrets in plain text, to be held in memory only (see the module comment). */
  async exportStateWithSecrets(): Promise<ExportedStack> {
    return JSON.parse(await this.run(["stack", "export", "--show-secrets"])) as ExportedStack;
  }

  /** The stack's configuration, secrets in plain text (in memory only): key to value. */
  async configuration(): Promise<Map<string, string>> {
    const listed = JSON.parse(await this.run(["config", "--json", "--show-secrets"])) as Record<string, { value?: unknown; objectValue?: unknown }>;
    const config = new Map<string, string>();
    for (const [key, entry] of Object.entries(listed)) {
      const value = entry.value ?? entry.objectValue;
      if (value !== undefined) config.set(key, typeof value === "string" ? value : JSON.stringify(value));
    }
    return config;
  }

  /** Write `state` as the stack's state (`pulumi stack import`), from a file only this process reads, deleted after. */
  async importState(state: ExportedStack): Promise<void> {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kasm-recover-"));
    try {
      const file = path.join(dir, "state.json");
      writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
      await this.run(["stack", "import", "--file", file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Pulumi's marks of a secret value in an exported state. */
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** `value` with every secret of a `--show-secrets` export replaced by its plain value. */
export function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[SECRET_SIG_KEY] === SECRET_SIG && typeof record.plaintext === "string") return revealed(JSON.parse(record.plaintext));
  return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, revealed(inner)]));
}

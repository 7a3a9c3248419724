/**
 * What a killed `pulumi` command leaves in a file backend (`pulumi login file://...` or
 * `--local`), which every later command of the stack trips over until it is removed:
 * - the checkpoint's attributes file (`<stack>.json.attrs`: its content type and checksum) left
 *   empty by a kill while the CLI wrote it: every command fails with `failed to load checkpoint:
 *   EOF`. The checkpoint itself is whole; an empty attributes file holds nothing, so deleting it
 *   loses nothing.
 * - the stack's lock (`.pulumi/locks/organization/<project>/<stack>/<id>.json`): every command
 *   fails with "the stack is currently locked". A lock names the process that took it (its pid and
 *   host); it is stale when that host is this one and no such process runs. Only then is it
 *   removed (with `pulumi cancel`); a lock of a live process, or of another host, is left alone,
 *   since it is what keeps two commands from writing the state at once.
 *
 * Other backends (Pulumi Cloud, an object store) are left to their own tools.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What a repair did or found, one line each, for the report. */
export interface BackendRepair {
  /** Empty attributes files deleted. */
  readonly emptiedAttributesDeleted: string[];
  /** Stale locks found (their processes gone): `pulumi cancel` removes them. */
  readonly staleLocks: string[];
  /** Locks of processes still running, or of other hosts: left, and recovery stops. */
  readonly liveLocks: string[];
}

/** The folder of a `file://` backend URL, or undefined for any other backend. */
export function fileBackendDir(url: string): string | undefined {
  return url.startsWith("file://") ? fileURLToPath(url) : undefined;
}

/** The stack's attributes files that a killed write left empty, in the layouts with and without project folders. */
function emptyAttributesFiles(backend: string, project: string, stack: string): string[] {
  const stacks = path.join(backend, ".pulumi", "stacks");
  const candidates = [path.join(stacks, project), stacks].flatMap((dir) =>
    [`${stack}.json.attrs`, `${stack}.json.bak.attrs`].map((name) => path.join(dir, name)),
  );
  return candidates.filter((file) => existsSync(file) && statSync(file).size === 0);
}

/** The lock files of the stack. */
function lockFiles(backend: string, project: string, stack: string): string[] {
  const dir = path.join(backend, ".pulumi", "locks", "organization", project, stack);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => path.join(dir, name));
}

/** Whether a process with this id runs on this host. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether a lock's process is gone: taken on this host, by a process that no longer runs. */
function isStale(lockFile: string): boolean {
  try {
    const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { pid?: unknown; hostname?: unknown };
    return lock.hostname === os.hostname() && typeof lock.pid === "number" && !isRunning(lock.pid);
  } catch {
    // A lock file that cannot be read names no process: it cannot be told stale.
    return false;
  }
}

/**
 * Delete the stack's empty attributes files, and sort its locks into stale and live (see the module
 * comment). Removing stale locks is the caller's, with `pulumi cancel`, once no live one is left.
 */
export function repairFileBackend(backend: string, project: string, stack: string): BackendRepair {
  const emptied = emptyAttributesFiles(backend, project, stack);
  for (const file of emptied) rmSync(file);
  const locks = lockFiles(backend, project, stack);
  return {
    emptiedAttributesDeleted: emptied,
    staleLocks: locks.filter(isStale),
    liveLocks: locks.filter((file) => !isStale(file)),
  };
}

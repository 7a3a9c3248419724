/**
 * The state file: the resources of a stack, in order, with secrets encrypted the way Pulumi's
 * passphrase secrets provider encrypts them (PBKDF2-SHA256 with 1,000,000 iterations to a 256-bit
 * key, AES-256-GCM with a random 12-byte nonce, `v1:<nonce>:<ciphertext>` in base64). A secret is
 * stored as `{ [SIG]: SECRET_SIG, ciphertext }`, as in a Pulumi checkpoint; no plaintext of a secret
 * ever reaches the file.
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { SECRET_SIG, SIG, isSecret, type Props } from "./values";

/** One resource in the state. Values are in wire form: secrets are `{ [SIG]: SECRET_SIG, value }` in memory. */
export interface ResourceRecord {
  urn: string;
  type: string;
  /** A custom resource (managed by a provider) rather than a component or the stack. */
  custom: boolean;
  /** The provider's id; empty for components. */
  id: string;
  /** The inputs after Check (with `__provider` for dynamic resources). */
  inputs: Props;
  outputs: Props;
  parent: string;
  /** URNs this resource depends on (`dependsOn` and every property dependency). */
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  /** Outputs the program asked to keep secret although their inputs were not. */
  additionalSecretOutputs: string[];
  /** The resource's `deletedWith`: its delete is skipped when that resource is deleted in the same run. */
  deletedWith?: string;
  /** Why the object failed to initialise (the host's ErrorResourceInitFailed); the next `up` updates it. */
  initErrors?: string[];
  /** `protect`: a delete (destroy, or the program no longer declaring it) or a replacement is refused. */
  protect?: true;
  /** `retainOnDelete`: a delete drops it from the state without deleting the object. */
  retainOnDelete?: true;
  /** An object replaced (create-before-delete) whose delete has not happened yet. */
  pendingDelete?: boolean;
}

interface StateFile {
  version: 1;
  /** Like Pulumi's `encryptionsalt`: `v1:<salt>:<"pulumi" encrypted with the key>`, to check the passphrase. */
  encryptionsalt: string;
  resources: ResourceRecord[];
}

const ITERATIONS = 1_000_000;

/**
 * Keys derived in this process, by salt and passphrase. Deriving one takes about 0.6 s of CPU,
 * and a test run opens many state files with one passphrase.
 */
const derivedKeys = new Map<string, Buffer>();
/**
 * The salt this process gives a new state file, by passphrase: the first one drawn. Pulumi draws
 * one per stack; sharing it between the stacks of one process loses nothing, as each value is
 * sealed with a nonce of its own, and spares a derivation per stack.
 */
const newFileSalts = new Map<string, Buffer>();

function deriveKey(passphrase: string, salt: Buffer): Buffer {
  const id = `${salt.toString("base64")}:${passphrase}`;
  let key = derivedKeys.get(id);
  if (!key) {
    key = pbkdf2Sync(passphrase, salt, ITERATIONS, 32, "sha256");
    derivedKeys.set(id, key);
  }
  return key;
}

/** AES-256-GCM with a key derived from a passphrase, in Pulumi's passphrase-provider format. */
class Crypter {
  constructor(private readonly key: Buffer) {}

  encrypt(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
  }

  decrypt(ciphertext: string): string {
    const [version, nonce, sealed] = ciphertext.split(":");
    if (version !== "v1" || !nonce || !sealed) throw new Error(`unknown ciphertext format: ${ciphertext.slice(0, 8)}...`);
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString("utf8");
  }
}

function mapSecrets(value: unknown, fn: (secret: Props) => unknown): unknown {
  if (isSecret(value)) return fn(value as Props);
  if (Array.isArray(value)) return value.map((v) => mapSecrets(v, fn));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapSecrets(v, fn)]));
  return value;
}

/** Reads and writes one state file. The key is derived once per passphrase and salt in a process (see {@link deriveKey}). */
export class StateStore {
  private crypter?: Crypter;
  private salt?: string;

  constructor(
    readonly path: string,
    private readonly passphrase: string,
  ) {}

  private crypterFor(encryptionsalt: string | undefined): Crypter {
    if (encryptionsalt && encryptionsalt === this.salt && this.crypter) return this.crypter;
    if (!encryptionsalt) {
      const salt = newFileSalts.get(this.passphrase) ?? randomBytes(8);
      newFileSalts.set(this.passphrase, salt);
      this.crypter = new Crypter(deriveKey(this.passphrase, salt));
      this.salt = `v1:${salt.toString("base64")}:${this.crypter.encrypt("pulumi")}`;
      return this.crypter;
    }
    const [, salt, ...check] = encryptionsalt.split(":");
    const crypter = new Crypter(deriveKey(this.passphrase, Buffer.from(salt, "base64")));
    try {
      if (crypter.decrypt(check.join(":")) !== "pulumi") throw new Error("mismatch");
    } catch {
      throw new Error(`incorrect passphrase for the state file ${this.path}`);
    }
    this.crypter = crypter;
    this.salt = encryptionsalt;
    return crypter;
  }

  /** The resources in the file (none when it does not exist yet), with secrets decrypted. */
  load(): ResourceRecord[] {
    if (!existsSync(this.path)) return [];
    const file = JSON.parse(readFileSync(this.path, "utf8")) as StateFile;
    const crypter = this.crypterFor(file.encryptionsalt);
    return mapSecrets(file.resources, (s) => ({ [SIG]: SECRET_SIG, value: JSON.parse(crypter.decrypt(String(s.ciphertext))) })) as ResourceRecord[];
  }

  /**
   * Write the resources, every secret encrypted; atomically (a temporary file, flushed, then
   * renamed over the old one), as a crash must not leave half a file.
   */
  save(resources: ResourceRecord[]): void {
    const crypter = this.crypterFor(this.salt);
    const file: StateFile = {
      version: 1,
      encryptionsalt: this.salt!,
      resources: mapSecrets(resources, (s) => ({ [SIG]: SECRET_SIG, ciphertext: crypter.encrypt(JSON.stringify(s.value ?? null)) })) as ResourceRecord[],
    };
    // The folder may not exist yet (a first run with a fresh state path): nothing would be recorded.
    mkdirSync(path.dirname(this.path), { recursive: true });
    writeFileAtomic.sync(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }
}

/** What a record depends on: its parent, its `dependsOn` and every property dependency. */
export function dependencyUrns(r: ResourceRecord): Set<string> {
  return new Set([r.parent, ...r.dependencies, ...Object.values(r.propertyDependencies).flat()]);
}

/**
 * The records in dependency order (a resource after its parent and everything it depends on),
 * keeping the given order otherwise. Reverse it to delete.
 */
export function dependencyOrder(records: readonly ResourceRecord[]): ResourceRecord[] {
  const byUrn = new Map<string, ResourceRecord[]>();
  for (const r of records) byUrn.set(r.urn, [...(byUrn.get(r.urn) ?? []), r]);
  const done = new Set<ResourceRecord>();
  const visiting = new Set<ResourceRecord>();
  const ordered: ResourceRecord[] = [];
  const visit = (r: ResourceRecord) => {
    if (done.has(r) || visiting.has(r)) return; // a cycle cannot come from a program; ignore it rather than loop
    visiting.add(r);
    for (const urn of dependencyUrns(r)) for (const dep of byUrn.get(urn) ?? []) if (dep !== r) visit(dep);
    visiting.delete(r);
    done.add(r);
    ordered.push(r);
  };
  records.forEach(visit);
  return ordered;
}

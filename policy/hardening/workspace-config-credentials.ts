/**
 * `workspace-config-credentials`: no credential is written into a workspace's run or exec config.
 *
 * Why: the run config and the exec config are stored in Kasm's image record as plain settings,
 * shown to every key and administrator with Images View and copied into each session, where the
 * session's user can read its environment. A registry credential belongs in `registryUsername` and
 * `registryPassword`, which Kasm keeps apart and never shows back. A policy sees secret values
 * already unwrapped, so it cannot tell a value given with `pulumi.secret` from a plain one: the rule
 * goes by names (an environment variable or key whose name says password, secret, token or key) and
 * names the key, never its value.
 */
import { isUnknownValue } from "../../permissions/planned-calls";
import { resourceRule } from "./common";

/** Key names that say they hold a credential. */
const CREDENTIAL_NAME = /(pass(word|wd)?|secret|token|api[_-]?key|private[_-]?key|credential)s?$/i;

/** The paths of keys in `value` (objects and lists, deeply) whose name says they hold a credential and whose value is a non-empty string. */
export function credentialKeys(value: unknown, path: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => credentialKeys(item, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
    CREDENTIAL_NAME.test(key) && typeof item === "string" && item !== "" ? [`${path}.${key}`] : credentialKeys(item, `${path}.${key}`),
  );
}

/** The `workspace-config-credentials` policy: the rule above, on each Workspace. */
export const workspaceConfigCredentials = resourceRule({
  name: "workspace-config-credentials",
  kind: "Workspace",
  description: "A workspace's run config and exec config hold no credential (a key named like a password, secret, token or key).",
  severity: "high",
  area: "workspaces",
  remediationSteps:
    "Give registry credentials as registryUsername and registryPassword; pass other credentials to the session another way (a secret mounted from the agent, or the application's own login) instead of the run or exec config.",
  check: (workspace) => {
    if (isUnknownValue(workspace.runConfig) || isUnknownValue(workspace.execConfig)) return { undecided: "runConfig or execConfig is not known yet" };
    const keys = [...credentialKeys(workspace.runConfig, "runConfig"), ...credentialKeys(workspace.execConfig, "execConfig")];
    return keys.length === 0
      ? null
      : {
          violation: `${keys.join(", ")} ${keys.length === 1 ? "looks" : "look"} like a credential written into the image record, which anyone with Images View and every session's user can read.`,
        };
  },
});

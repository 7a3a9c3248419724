/**
 * `workspace-host-access`: a workspace's sessions cannot take over the agent they run on.
 *
 * Why: a session is a container on a Kasm agent, and its user controls what runs inside it. A
 * container that is privileged, gets the Docker socket mounted (through `volumeMappings` or the
 * run config's `volumes`), shares the host's process, network or PID namespace, adds capabilities
 * such as SYS_ADMIN, or turns seccomp or AppArmor off can reach the agent's host and every other
 * session on it (Docker's documentation on `--privileged`, the daemon socket and runtime
 * privileges). Kasm passes the run config to Docker as given.
 */
import { isUnknownValue } from "../../permissions/planned-calls";
import { resourceRule } from "./common";

/** Capabilities that give a container power over the host (Docker's "runtime privilege" list). */
const HOST_CAPABILITIES = ["ALL", "SYS_ADMIN", "SYS_MODULE", "SYS_PTRACE", "SYS_RAWIO", "NET_ADMIN", "DAC_READ_SEARCH"];

/** The Docker socket, by any of its usual paths. */
const DOCKER_SOCKET = /(^|\/)(docker|containerd)\.sock$/;

/** The host access a run config and volume mappings grant, in words; empty when none. */
export function hostAccess(runConfig: Record<string, unknown> | undefined, volumeMappings: Record<string, unknown> | undefined): string[] {
  const found: string[] = [];
  const run = runConfig ?? {};
  if (run.privileged === true) found.push("runConfig.privileged is true");
  for (const mode of ["network_mode", "pid_mode", "ipc_mode", "userns_mode"] as const)
    if (typeof run[mode] === "string" && (run[mode] as string).toLowerCase() === "host") found.push(`runConfig.${mode} is "host"`);
  const added = Array.isArray(run.cap_add) ? run.cap_add.map((c) => String(c).toUpperCase().replace(/^CAP_/, "")) : [];
  for (const cap of added.filter((c) => HOST_CAPABILITIES.includes(c))) found.push(`runConfig.cap_add adds ${cap}`);
  const securityOpt = Array.isArray(run.security_opt) ? run.security_opt.map(String) : [];
  for (const opt of securityOpt.filter((o) => /^(seccomp|apparmor)[=:]unconfined$/i.test(o))) found.push(`runConfig.security_opt has ${opt}`);
  const runVolumes = typeof run.volumes === "object" && run.volumes !== null ? Object.keys(run.volumes) : [];
  for (const path of [...Object.keys(volumeMappings ?? {}), ...runVolumes].filter((p) => DOCKER_SOCKET.test(p)))
    found.push(`${path} (the container runtime's socket) is mounted`);
  return found;
}

/** The `workspace-host-access` policy: the rule above, on each Workspace. */
export const workspaceHostAccess = resourceRule({
  name: "workspace-host-access",
  kind: "Workspace",
  description:
    "A workspace's sessions run unprivileged, without the Docker socket, host namespaces, added host capabilities or a disabled seccomp/AppArmor profile.",
  severity: "high",
  area: "workspaces",
  remediationSteps:
    "Remove privileged, host network/PID/IPC modes, host capabilities and unconfined security options from runConfig, and the Docker socket from volumeMappings and runConfig.volumes. A workspace that truly needs one can be named in exemptResources.",
  check: (workspace) => {
    if (isUnknownValue(workspace.runConfig) || isUnknownValue(workspace.volumeMappings)) return { undecided: "runConfig or volumeMappings is not known yet" };
    const found = hostAccess(workspace.runConfig as Record<string, unknown> | undefined, workspace.volumeMappings as Record<string, unknown> | undefined);
    return found.length === 0 ? null : { violation: `its sessions can reach the agent's host: ${found.join("; ")}.` };
  },
});

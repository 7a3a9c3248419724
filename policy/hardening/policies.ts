/**
 * The registry of the hardening pack (see `policy/shared/registry.ts`): every policy once, with
 * the README's words for it. `index.ts` serves {@link policies} as the pack; tests import it from
 * here.
 */
import type { Policies } from "@pulumi/policy";
import { markdownRow, registered, settingsBeyond, type KasmPolicy, type PolicyEntry, type ReadmeTable } from "../shared/registry";
import { EXEMPT_PROPERTY } from "./common";
import { anonymousDataTransfer } from "./anonymous-data-transfer";
import { castAnonymousDynamicArgs } from "./cast-anonymous-dynamic-args";
import { castAnonymousExpiry } from "./cast-anonymous-expiry";
import { castAnonymousIpLimit } from "./cast-anonymous-ip-limit";
import { castAnonymousRecaptcha } from "./cast-anonymous-recaptcha";
import { castAnonymousReferrers } from "./cast-anonymous-referrers";
import { castAnonymousSharing } from "./cast-anonymous-sharing";
import { castValidUntilPast } from "./cast-valid-until-past";
import { conflictingDeclarations } from "./conflicting-declarations";
import { egressCredentialConnectionLimit } from "./egress-credential-connection-limit";
import { serverImportSharedCredentials } from "./server-import-shared-credentials";
import { stagingLicenseCapacity } from "./staging-license-capacity";
import { userPasswordLength } from "./user-password-length";
import { userSetAdministrators } from "./user-set-administrators";
import { userSetPasswordReset } from "./user-set-password-reset";
import { workspaceConfigCredentials } from "./workspace-config-credentials";
import { workspaceHostAccess } from "./workspace-host-access";

/** The pack's name, as `pulumi preview --policy-pack` reports it. */
export const PACK_NAME = "kasm-hardening";

/** The pack's description, as `pulumi preview` shows it. */
export const PACK_DESCRIPTION =
  "Hardening rules for Kasm resources: anonymous casting, staging capacity, egress credentials, passwords, workspaces, conflicting declarations.";

/** The config every hardening rule takes, which the README states once for all. */
const COMMON_SETTINGS = new Set(Object.keys(EXEMPT_PROPERTY ?? {}));

/** A rule's own config properties, as the README's Tuning column names them (`` `maxValidDays` ``). */
export function ownSettings(policy: KasmPolicy): string[] {
  return settingsBeyond(policy, COMMON_SETTINGS);
}

/**
 * A hardening rule's entry. Its Tuning column names the rule's own config properties, read from
 * the rule so that a renamed property cannot leave the README behind; a rule whose tuning needs
 * more words than its names gives them (and a test checks that they still name each property).
 */
function registeredRule(
  policy: KasmPolicy,
  summary: string,
  tuning = ownSettings(policy)
    .map((name) => `\`${name}\``)
    .join(", "),
): PolicyEntry {
  return registered(policy, summary, tuning);
}

/** Every policy of the pack, in the order it serves them: what each flags, and its tuning. */
export const REGISTRY: readonly PolicyEntry[] = [
  registeredRule(castAnonymousIpLimit, "`allowAnonymous` without `limitIps`"),
  registeredRule(castAnonymousExpiry, "`allowAnonymous` without `validUntil`"),
  registeredRule(castAnonymousReferrers, "`allowAnonymous` with no `allowedReferrers`"),
  registeredRule(castAnonymousRecaptcha, "`allowAnonymous` without `requireRecaptcha`"),
  registeredRule(castAnonymousSharing, "`allowAnonymous` with `enableSharing` (or `allowWsSharing` under `enforceClientSettings`)"),
  registeredRule(castAnonymousDynamicArgs, "`allowAnonymous` with `dynamicWsUrl` or `dynamicCtrNetwork`"),
  registeredRule(
    anonymousDataTransfer,
    "`allowWsClipboardUp`/`allowWsUploads` on an anonymous casting config, or on a staging config of the same image (its staged sessions back the link)",
  ),
  registeredRule(castValidUntilPast, "`validUntil` already past"),
  registeredRule(
    conflictingDeclarations,
    "two resources declaring one Kasm object: two `UserAttributes`, two `UserGroups` or a `UserGroups` and a `GroupMembership` of one user, two `GroupMembership` of one user and group, two `UserServerAssignment` of one user and server, two `GroupWorkspace` of one group and workspace, two `EgressProviderMapping` of one provider and target, two `ServerDrain` of one server, two `StagingConfig` of one zone and image; reported on the later resource, naming both",
  ),
  registeredRule(egressCredentialConnectionLimit, "an egress credential without `limitActiveConnections`"),
  registeredRule(
    stagingLicenseCapacity,
    "staging configs keeping more sessions staged, together, than the license runs at once (Community Edition: 5)",
    '`license` (`community`, `per-concurrent-session` with `concurrentSessions`, `per-named-user`); without it the rule does not apply; `connections` (`{"prod": {"license": ...}}`) gives other installations\' licenses, each counted apart',
  ),
  registeredRule(userPasswordLength, "a `User` password shorter than `minLength` (12)"),
  registeredRule(
    serverImportSharedCredentials,
    "an SSH server of a `ServerImport` with STATIC credentials (named, or left out: Kasm's default) and without `useUserPrivateKey`, so every user connects as one stored account; rows named by position (`servers[2]`, `csv row 3 (line 4)`)",
  ),
  registeredRule(
    userSetAdministrators,
    "a `UserSet` row that puts its user into Administrators (Global Admin over the whole deployment); administrators are better declared one by one, as a `User` with a `GroupMembership`; rows named by position",
  ),
  registeredRule(
    userSetPasswordReset,
    "a local-realm `UserSet` row (realm left out means local) without `forcePasswordReset: true`, so the user keeps the password they were given; rows named by position",
  ),
  registeredRule(
    workspaceHostAccess,
    "a `Workspace` whose sessions can reach the agent's host: `runConfig.privileged`, host network/PID/IPC/user namespace, `cap_add` of a host capability (SYS_ADMIN, ALL, ...), seccomp or AppArmor `unconfined`, or the Docker socket mounted through `volumeMappings` or `runConfig.volumes`",
  ),
  registeredRule(
    workspaceConfigCredentials,
    "a `Workspace` whose `runConfig` or `execConfig` holds a key named like a credential (password, secret, token, api key, private key) with a value: the image record is readable with Images View and in every session; the key is named, never its value",
  ),
];

/** Every policy of the pack, as `new PolicyPack` takes them. */
export const policies: Policies = REGISTRY.map((entry) => entry.policy);

/** The pack's table in policy/README.md: a mandatory default is written in bold. */
export const README_TABLE: ReadmeTable = {
  header: "| Policy | Default | Flags | Tuning |",
  row: (entry) => markdownRow([`\`${entry.name}\``, entry.level === "mandatory" ? "**mandatory**" : entry.level, entry.summary, entry.settings]),
};

/**
 * Names the SDK exports for parts of the kinds' types: a set of arguments two kinds share, and
 * value types a program may want to name. Each is taken from the generated classes or the kinds,
 * so that it cannot drift from them.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { EgressCredentialArgs, StagingConfigArgs, UserSetArgs } from "./kinds";
import type { SESSION_PERMISSION_FIELDS } from "../provider/resources/session-permissions";
import type { targetAndGatewayFields } from "../provider/resources/egress-shared";
import type { EGRESS_PROVIDER_TYPES } from "../provider/resources/egress-provider";

export type { LicenseFeatures } from "../provider/resources/license-activation";

/** The session permissions that a `StagingConfig` and a `CastConfig` both set on the sessions they start. */
export type SessionPermissionArgs = Pick<StagingConfigArgs, keyof typeof SESSION_PERMISSION_FIELDS>;

/** What an `EgressProviderMapping` or an `EgressCredential` applies to (exactly one of `userId`, `groupId` and `imageId`), and the gateways it may use. */
export type EgressTargetArgs = Pick<EgressCredentialArgs, keyof ReturnType<typeof targetAndGatewayFields>>;

/** The protocol of an `EgressProvider`. */
export type EgressProviderType = (typeof EGRESS_PROVIDER_TYPES)[number];

/** `additive` (default): a `UserSet` only adds the listed groups. `authoritative`: it also removes the others, except All Users. */
export type UserSetGroupsMode = NonNullable<pulumi.Unwrap<UserSetArgs["groupsMode"]>>;

/**
 * The policies of the hardening pack, without serving them: `index.ts` serves them as a policy
 * pack, and tests import them from here.
 */
import type { Policies } from "@pulumi/policy";
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

/** The pack's name, as `pulumi preview --policy-pack` reports it. */
export const PACK_NAME = "kasm-hardening";

/** Every policy of the pack. */
export const policies: Policies = [
  castAnonymousIpLimit,
  castAnonymousExpiry,
  castAnonymousReferrers,
  castAnonymousRecaptcha,
  castAnonymousSharing,
  castAnonymousDynamicArgs,
  anonymousDataTransfer,
  castValidUntilPast,
  conflictingDeclarations,
  egressCredentialConnectionLimit,
  stagingLicenseCapacity,
  userPasswordLength,
  serverImportSharedCredentials,
  userSetAdministrators,
  userSetPasswordReset,
];

export {
  anonymousDataTransfer,
  castAnonymousDynamicArgs,
  castAnonymousExpiry,
  castAnonymousIpLimit,
  castAnonymousRecaptcha,
  castAnonymousReferrers,
  castAnonymousSharing,
  castValidUntilPast,
  conflictingDeclarations,
  egressCredentialConnectionLimit,
  serverImportSharedCredentials,
  stagingLicenseCapacity,
  userPasswordLength,
  userSetAdministrators,
  userSetPasswordReset,
};

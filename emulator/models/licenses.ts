/**
 * Licenses: activation keys (the entitlements a seed grants) and the licenses activated from
 * them. Licenses cap what the other areas may hold: named users and concurrent sessions.
 */
import { COMMUNITY_CONCURRENT_SESSIONS } from "../../permissions/product";
import { ActivationRefused, LicenseLimitExceeded } from "../errors";
import { LICENSE_FEATURES } from "../fields";
import { AreaModel, newId, timestamp, type Table } from "./common";

/** A license entitlement: an activation key and the seats it still has to give. */
export interface ActivationKeyRecord {
  activation_key: string;
  seats: number;
  seats_used: number;
  license_type: string;
  sku: string;
  expiration: string;
  features: Record<string, boolean>;
}

/** A license activated from an activation key: `limit` is the seats it took. */
export interface LicenseRecord {
  license_id: string;
  expiration: string;
  issued_at: string;
  issued_to: string | null;
  limit: number;
  is_verified: boolean;
  license_type: string;
  sku: string;
  features: Record<string, boolean>;
}

/** The part of the state this model owns. */
export interface LicensesTables {
  activationKeys: Table<ActivationKeyRecord>;
  licenses: Table<LicenseRecord>;
}

/** An activation key as a seed describes it; `features` overrides the features it grants. */
export interface ActivationKeyInput {
  activation_key: string;
  seats: number;
  license_type: string;
  sku?: string;
  expiration?: string;
  features?: Record<string, boolean>;
}

/** A seeded activation key grants every feature of the license record unless it says otherwise. */
const ALL_FEATURES = LICENSE_FEATURES.documented;

/** Capacity of the Community Edition, which applies while no license is active (the permission catalogue's product constant). */
export { COMMUNITY_CONCURRENT_SESSIONS };

/** Activation keys, licenses and the limits they set. */
export class LicensesModel extends AreaModel<LicensesTables> {
  /** Every active license. */
  all(): LicenseRecord[] {
    return Object.values(this.tables.licenses);
  }

  /** How many sessions may run at once: the Community Edition's 5 without a concurrent-session license. */
  sessionCapacity(): number {
    const concurrent = this.all().filter((l) => /concurrent/i.test(l.license_type));
    if (concurrent.length > 0) return concurrent.reduce((sum, l) => sum + l.limit, 0);
    if (Object.keys(this.tables.licenses).length > 0) return Number.POSITIVE_INFINITY;
    return COMMUNITY_CONCURRENT_SESSIONS;
  }

  /**
   * Refuse `adding` new users to `namedUsers` beyond the seats of Per Named User licenses.
   * Without such a license (Community Edition, or concurrent-session licenses) the number of
   * users is not limited.
   */
  checkNamedUserSeats(namedUsers: number, adding: number): void {
    const named = this.all().filter((l) => /named user/i.test(l.license_type));
    if (named.length === 0) return;
    const seats = named.reduce((sum, l) => sum + l.limit, 0);
    if (namedUsers + adding > seats) throw new LicenseLimitExceeded("user");
  }

  /**
   * activate: takes `seats` from the key's entitlement (all that is left when omitted). Repeated
   * calls add seats as further licenses; asking for more than is left is refused.
   */
  activate(activationKey: string, seats: number | undefined, issuedTo: string | null): LicenseRecord {
    const entitlement = this.tables.activationKeys[activationKey.trim()];
    if (!entitlement) throw new ActivationRefused("Invalid activation key");
    const left = entitlement.seats - entitlement.seats_used;
    if (seats !== undefined && (!Number.isInteger(seats) || seats < 1)) throw new ActivationRefused(`seats must be a positive integer, got (${seats})`);
    const taking = seats ?? left;
    if (left <= 0) throw new ActivationRefused("No seats remain on this activation key's entitlement");
    if (taking > left) throw new ActivationRefused(`Requested seats (${taking}) exceed the seats remaining on the entitlement (${left})`);
    entitlement.seats_used += taking;
    const license: LicenseRecord = {
      license_id: newId(),
      expiration: entitlement.expiration,
      issued_at: timestamp(),
      issued_to: issuedTo,
      limit: taking,
      is_verified: true,
      license_type: entitlement.license_type,
      sku: entitlement.sku,
      features: { ...entitlement.features },
    };
    this.tables.licenses[license.license_id] = license;
    return license;
  }

  /**
   * Add a seeded activation key: a year's validity, the SKU of its license type and every
   * feature, unless it says otherwise.
   */
  addSeedActivationKey(input: ActivationKeyInput): ActivationKeyRecord {
    const activation_key = input.activation_key.trim();
    const record: ActivationKeyRecord = {
      activation_key,
      seats: input.seats,
      seats_used: 0,
      license_type: input.license_type,
      sku: input.sku ?? (/named/i.test(input.license_type) ? "PER-NAMED-USER" : "PER-CONCURRENT-SESSION"),
      expiration: input.expiration ?? timestamp(new Date(Date.now() + 365 * 24 * 3600_000)),
      features: { ...Object.fromEntries(ALL_FEATURES.map((f) => [f, true])), ...(input.features ?? {}) },
    };
    this.tables.activationKeys[activation_key] = record;
    return record;
  }
}

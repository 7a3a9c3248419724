/**
 * Two installations: one team and one staging config, kept the same in staging (the default
 * connection, `kasm:`) and in production (`kasm.Connection("production")`, whose settings are
 * `kasm-production:baseUrl`, `kasm-production:apiKey` and `kasm-production:apiKeySecret`, or
 * `KASM_PRODUCTION_*`). Adding a name to `team` adds the user to both in one `up`.
 *
 * Configuration: per installation, the zone and the image of the staged Chrome sessions
 * (`stagingZoneId`, `stagingImageId`, `productionZoneId`, `productionImageId`): ids differ from
 * one installation to the other. (Lookups can find them by name through a connection,
 * `kasm.getZoneOutput({ name }, { connection: production })`, at the cost of reading both
 * installations at every run; ids from the configuration keep an `up` without change free of
 * requests.)
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const production = new kasm.Connection("production");

/** The team, the same in both installations. */
const team: kasm.UserSetUser[] = [
  { username: "ada", firstName: "Ada", lastName: "Lovelace", groups: ["Engineering"] },
  { username: "grace", firstName: "Grace", lastName: "Hopper", groups: ["Engineering"] },
  { username: "linus", firstName: "Linus", lastName: "Torvalds", groups: ["Engineering"] },
];

/** Each installation: its connection (undefined: `kasm:`) and its own zone and image ids. */
const installations = [
  { name: "staging", connection: undefined, zoneId: config.require("stagingZoneId"), imageId: config.require("stagingImageId") },
  { name: "production", connection: production, zoneId: config.require("productionZoneId"), imageId: config.require("productionImageId") },
];

export const userIds: Record<string, pulumi.Output<Record<string, string>>> = {};
for (const installation of installations) {
  const users = new kasm.UserSet(`team-${installation.name}`, { users: team, connection: installation.connection });
  new kasm.StagingConfig(`chrome-${installation.name}`, {
    zoneId: installation.zoneId,
    imageId: installation.imageId,
    numSessions: 2,
    expiration: 1,
    connection: installation.connection,
  });
  userIds[installation.name] = users.userIds;
}

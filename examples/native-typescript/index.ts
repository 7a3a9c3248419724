/**
 * One user, one team and a staging config of Chrome sessions, the same in two Kasm installations
 * (staging and production), through the native provider: the plugin `pulumi-resource-kasm`, which
 * the npm package pulumi-kasm ships, and its TypeScript SDK `@pulumi-kasm/native`, generated from
 * the plugin's schema (`npm run sdk:generate`). Each installation is an explicit `kasm.Provider`,
 * and each resource names its installation with the `provider` option; no `kasm:` stack settings
 * are read.
 *
 * Configuration, per installation (`staging`, `production`): `<name>Url`, `<name>ApiKey`,
 * `<name>ApiKeySecret` (secret), `<name>ApiNames` (`product` for a released Kasm, 1.15 or later;
 * default: the API documentation's names), `<name>ZoneId` and `<name>ImageId` (ids differ between
 * installations); and `adaPassword` (secret), `adaFirstName` (default Ada). The provider keeps the
 * API key secret and the password secret in the state whether or not the configuration marks them.
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "@pulumi-kasm/native";

const config = new pulumi.Config();

/** The team, the same in both installations. */
const team: kasm.types.input.UserSetUsersArgs[] = [
  { username: "grace", firstName: "Grace", lastName: "Hopper", groups: ["Engineering"] },
  { username: "linus", firstName: "Linus", lastName: "Torvalds", groups: ["Engineering"] },
];

/** Per installation: ada's Kasm id, and the team's (username -> Kasm id). */
export const userIds: Record<string, pulumi.Output<string | undefined>> = {};
export const teamIds: Record<string, pulumi.Output<Record<string, string> | undefined>> = {};

for (const name of ["staging", "production"]) {
  const provider = new kasm.Provider(name, {
    baseUrl: config.require(`${name}Url`),
    apiKey: config.require(`${name}ApiKey`),
    apiKeySecret: config.requireSecret(`${name}ApiKeySecret`),
    apiNames: config.get(`${name}ApiNames`),
  });
  const on = { provider };

  const ada = new kasm.User(
    `ada-${name}`,
    { username: "ada", password: config.requireSecret("adaPassword"), firstName: config.get("adaFirstName") ?? "Ada", lastName: "Lovelace" },
    on,
  );
  const users = new kasm.UserSet(`team-${name}`, { users: team }, on);
  new kasm.StagingConfig(
    `chrome-${name}`,
    { zoneId: config.require(`${name}ZoneId`), imageId: config.require(`${name}ImageId`), numSessions: 2, expiration: 1 },
    on,
  );

  userIds[name] = ada.userId;
  teamIds[name] = users.userIds;
}

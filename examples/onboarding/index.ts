/**
 * Onboarding: the program of the README's "Bulk onboarding" section, as it is written there.
 * users.csv (200 rows in Kasm's batch import format) becomes one `UserSet`; one `ServerImport`
 * registers a build server; a `UserServerAssignment` gives it to ada.lovelace.
 *
 * Configuration: kasm:baseUrl, kasm:apiKey, kasm:apiKeySecret (secret).
 */
import { readFileSync } from "node:fs";
import * as kasm from "pulumi-kasm";

const staff = new kasm.UserSet("staff", { csv: readFileSync("users.csv", "utf8") });

const servers = new kasm.ServerImport("servers", {
  servers: [{ name: "build-box", ipHostname: "build-box.example.org", port: 22, zoneName: "default", connectionType: "SSH" }],
});

new kasm.UserServerAssignment("ada-build-box", {
  userId: staff.userIds["ada.lovelace"],
  serverId: servers.serverIds["build-box"],
});

export const userCount = staff.count;

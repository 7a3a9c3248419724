/**
 * Quickstart: two users with secret passwords, their attributes, group memberships, a
 * workstation assignment, and lookups of an image and a zone.
 *
 * Configuration (the emulator's seed.json beside this file matches the defaults):
 *   kasm:baseUrl, kasm:apiKey, kasm:apiKeySecret (secret)      where Kasm is and the pipeline's key
 *   alicePassword, bobPassword (secrets)                        the users' passwords
 *   engineeringGroupId, supportGroupId, workstationServerId     ids from your Kasm (Kasm's API cannot list groups)
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const engineeringGroupId = config.get("engineeringGroupId") ?? "6f1c2a3b4d5e4f708192a3b4c5d6e7f8";
const supportGroupId = config.get("supportGroupId") ?? "7a2b3c4d5e6f40718293a4b5c6d7e8f9";
const workstationServerId = config.get("workstationServerId") ?? "5e1f0c2d3b4a49588776655443322110";

// Lookups: what Kasm already has.
const terminal = kasm.getImageOutput({ friendlyName: "Terminal" });
const zone = kasm.getZoneOutput({ name: "default" });

const alice = new kasm.User("alice", {
  username: "alice",
  password: config.requireSecret("alicePassword"),
  firstName: "Alice",
  lastName: "Liddell",
  organization: "Platform",
});

const bob = new kasm.User("bob", {
  username: "bob",
  password: config.requireSecret("bobPassword"),
  firstName: "Bob",
  organization: "Support",
});

new kasm.UserAttributes("alice-attributes", {
  userId: alice.userId,
  defaultImage: terminal.imageId,
  showTips: false,
  sshPublicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB3pDs3bZfWyhc0fS5y1Rgq3Yb2l6uK0l4i3rW9qQx1Q alice@example.org",
});

// Alice's groups are managed as a whole; Bob gets one additive membership.
new kasm.UserGroups("alice-groups", { userId: alice.userId, groupIds: [engineeringGroupId, supportGroupId] });
new kasm.GroupMembership("bob-support", { userId: bob.userId, groupId: supportGroupId });

new kasm.UserServerAssignment("alice-workstation", { userId: alice.userId, serverId: workstationServerId });

export const aliceId = alice.userId;
export const bobId = bob.userId;
export const terminalImage = terminal.name;
export const zoneId = zone.zoneId;

/**
 * Casting kiosk: a public link (`{base_url}/#/cast/<key>`) that gives anonymous visitors a Chrome
 * session, rate limited per IP address, valid until a date, embeddable only from our own site,
 * with a staging pool that keeps sessions ready so a visitor does not wait.
 *
 * Configuration: kasm:baseUrl, kasm:apiKey, kasm:apiKeySecret (secret); visitorGroupId (the group
 * anonymous visitors are put in), validUntil (UTC, `YYYY-MM-DD HH:MM:SS`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const config = new pulumi.Config();
const chrome = kasm.getImageOutput({ friendlyName: "Chrome" });
const zone = kasm.getZoneOutput({ name: "default" });

// Sessions kept ready for visitors; the pool is small, and visitors cannot upload or paste into it.
const pool = new kasm.StagingConfig("kiosk-pool", {
  zoneId: zone.zoneId,
  imageId: chrome.imageId,
  numSessions: 3,
  expiration: 2,
  allowWsAudio: true,
  allowWsClipboardUp: false,
  allowWsUploads: false,
  allowWsDownloads: false,
});

const link = new kasm.CastConfig("kiosk-link", {
  castingConfigName: "Lobby kiosk",
  key: "lobby-kiosk",
  imageId: chrome.imageId,
  allowAnonymous: true,
  groupId: config.get("visitorGroupId") ?? "0c0ffee0c0ffee0c0ffee0c0ffee0001",
  limitIps: true,
  ipRequestLimit: 3,
  ipRequestSeconds: 3600,
  allowedReferrers: ["kiosk.example.org"],
  validUntil: config.get("validUntil") ?? "2030-12-31 23:59:59",
  requireRecaptcha: true,
  errorUrl: "https://kiosk.example.org/busy",
  enforceClientSettings: true,
  allowWsClipboardUp: false,
  allowWsUploads: false,
  allowWsDownloads: false,
  disableControlPanel: true,
});

export const castKey = link.key;
export const stagedSessions = pool.numSessions;

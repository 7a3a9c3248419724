/**
 * Sessions (running workspaces) and their recordings.
 *
 * A session needs a user and an image, runs on a server of the image's zone, and is capped by the
 * licenses: those models are passed in.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { LicenseLimitExceeded, UnknownObject } from "../errors";
import { AreaModel, byId, canonicalId, newId, timestamp, type Table } from "./common";
import type { ImageRecord, ImagesModel } from "./images";
import type { LicensesModel } from "./licenses";
import type { ServersModel } from "./servers";
import type { UserRecord, UsersModel } from "./users";

/** A running session as stored; `user_id` is null for a staged session nobody has taken yet. */
export interface SessionRecord {
  ws_id: string;
  user_id: string | null;
  image_id: string;
  server_id: string | null;
  start_date: string;
  keepalive_date: string;
  expiration_date: string;
  operational_status: string;
  share_id: string;
  session_token: string;
  staging_config_id: string | null;
}

/** A recording of a session; `timestamp` is in seconds since the epoch. */
export interface RecordingRecord {
  recording_id: string;
  ws_id: string;
  account_id: string;
  duration: number;
  timestamp: number;
}

/** The part of the state this model owns. */
export interface SessionsTables {
  sessions: Table<SessionRecord>;
  recordings: Table<RecordingRecord>;
}

/** The models sessions refer to. */
export interface SessionsDependencies {
  users: UsersModel;
  images: ImagesModel;
  servers: ServersModel;
  licenses: LicensesModel;
}

/** The sessions and their recordings, and the rules that start and end them. */
export class SessionsModel extends AreaModel<SessionsTables, SessionsDependencies> {
  /** Every session. */
  all(): SessionRecord[] {
    return Object.values(this.tables.sessions);
  }

  /** A session by id in either form; undefined when the id is malformed or unknown. */
  session(id: unknown): SessionRecord | undefined {
    return byId(this.tables.sessions, id);
  }

  /** The running sessions of a user. */
  sessionsOf(userId: string): SessionRecord[] {
    return this.all().filter((s) => s.user_id === userId);
  }

  /** The sessions running on a server. */
  sessionsOnServer(serverId: string): SessionRecord[] {
    return this.all().filter((s) => s.server_id === serverId);
  }

  /** A session of the given user: another user's session is reported as unknown. */
  sessionOf(wsId: unknown, userId: unknown): SessionRecord {
    const session = this.session(wsId);
    const user = this.deps.users.user(userId);
    if (!session || !user || session.user_id !== user.user_id) throw new UnknownObject(`Unknown session (${String(wsId ?? "")})`);
    return session;
  }

  /** request_ws: a running session of `image` for `user`, on a server of the image's zone if it has one. */
  createSession(userId: unknown, imageId: unknown): SessionRecord {
    const user = this.deps.users.requireUser(userId);
    const image = this.deps.images.requireImage(imageId);
    const running = this.all().filter((s) => s.user_id !== null).length;
    if (running >= this.deps.licenses.sessionCapacity()) throw new LicenseLimitExceeded("session");
    return this.createSessionUnchecked(user, image);
  }

  /** Start a session without checking the license capacity (seeds describe what already runs). */
  createSessionUnchecked(user: UserRecord, image: ImageRecord): SessionRecord {
    const session = this.buildSession(user.user_id, image, null);
    this.tables.sessions[session.ws_id] = session;
    user.last_session = session.start_date;
    return session;
  }

  /** A staged session nobody holds yet (a seed's session without a user): running, on a server of the image's zone if it has one. */
  createStagedSession(image: ImageRecord): SessionRecord {
    const session = this.buildSession(null, image, null);
    this.tables.sessions[session.ws_id] = session;
    return session;
  }

  private buildSession(userId: string | null, image: ImageRecord, stagingConfigId: string | null): SessionRecord {
    const now = new Date();
    const server = this.deps.servers.serverForZone(image.zone_id) ?? null;
    return {
      ws_id: newId(),
      user_id: userId,
      image_id: image.image_id,
      server_id: server?.server_id ?? null,
      start_date: timestamp(now),
      keepalive_date: timestamp(now),
      expiration_date: timestamp(new Date(now.getTime() + 3600_000)),
      operational_status: "running",
      share_id: randomBytes(4).toString("hex"),
      session_token: randomUUID(),
      staging_config_id: stagingConfigId,
    };
  }

  /** Give a session the id a seed pins for it. */
  pinSessionId(session: SessionRecord, wsId: string): void {
    delete this.tables.sessions[session.ws_id];
    session.ws_id = canonicalId(wsId)!;
    this.tables.sessions[session.ws_id] = session;
  }

  /** End a session. */
  removeSession(wsId: string): void {
    delete this.tables.sessions[wsId];
  }

  /** End every session of a user. */
  endSessionsOf(userId: string): void {
    for (const s of this.sessionsOf(userId)) this.removeSession(s.ws_id);
  }

  /** Add a recording to a session (seeds use this: the API itself has no way to make one). */
  addRecording(session: SessionRecord, duration: number): RecordingRecord {
    const recording: RecordingRecord = {
      recording_id: newId(),
      ws_id: session.ws_id,
      account_id: session.user_id ?? "",
      duration,
      timestamp: Math.floor(Date.now() / 1000),
    };
    this.tables.recordings[recording.recording_id] = recording;
    return recording;
  }

  /** The recordings of a session, oldest first. */
  recordingsOf(wsId: string): RecordingRecord[] {
    return Object.values(this.tables.recordings)
      .filter((r) => r.ws_id === wsId)
      .sort((a, b) => a.timestamp - b.timestamp || a.recording_id.localeCompare(b.recording_id));
  }
}

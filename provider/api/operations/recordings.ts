/** Operations of the recordings area: session recordings. */
import { SessionRecordingPage, SessionsRecordings, type GetSessionRecordingsParams, type GetSessionsRecordingsParams } from "../schemas/recordings";
import type { KasmApi } from "../transport";

/**
 * One page (of 5) of a session's recordings (`get_session_recordings`; needs Session Recordings
 * View). Pages start at 1. With `preauth_download_link`, each recording carries a download link.
 */
export async function getSessionRecordings(api: KasmApi, params: GetSessionRecordingsParams): Promise<SessionRecordingPage> {
  return api.transport.call("get_session_recordings", params, SessionRecordingPage);
}

/** The recordings of several sessions, by session id (`get_sessions_recordings`; needs Session Recordings View). */
export async function getSessionsRecordings(api: KasmApi, params: GetSessionsRecordingsParams): Promise<SessionsRecordings> {
  return api.transport.call("get_sessions_recordings", params, SessionsRecordings);
}

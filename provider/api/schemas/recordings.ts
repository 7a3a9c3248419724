/** Schemas of the recordings area: session recordings. */
import { z } from "zod";
import { Int, NullableString, nullable } from "./common";

/** A recording of a session. */
export const SessionRecording = z.looseObject({
  recording_id: z.string(),
  account_id: NullableString.optional(),
  /** Object-storage URL. */
  session_recording_url: NullableString.optional(),
  session_recording_metadata: z
    .looseObject({
      /** Seconds. */
      duration: nullable(Int).optional(),
      /** Image data. */
      thumbnail: NullableString.optional(),
      /** Epoch seconds. */
      timestamp: nullable(Int).optional(),
    })
    .nullable()
    .optional(),
  /** A pre-authorised download link, present when requested. */
  session_recording_download_url: NullableString.optional(),
});
/** A recording of a session. */
export type SessionRecording = z.infer<typeof SessionRecording>;

/** Parameters of `get_session_recordings`. */
export const GetSessionRecordingsParams = z.object({
  target_ws_id: z.string(),
  /** Default false. */
  preauth_download_link: z.boolean().optional(),
  /** One-based; default 1. The page size is fixed at 5. */
  page: z.number().int().min(1).optional(),
});
/** Parameters of `get_session_recordings`. */
export type GetSessionRecordingsParams = z.infer<typeof GetSessionRecordingsParams>;

/** The answer of `get_session_recordings`: one page (of 5) of a session's recordings. */
export const SessionRecordingPage = z.object({
  session_recordings: z.array(SessionRecording),
  /** Total recordings of the session. */
  items: Int.optional(),
  page: Int.optional(),
  per_page: Int.optional(),
  /** Seconds. */
  total_duration: nullable(Int).optional(),
});
/** The answer of `get_session_recordings`. */
export type SessionRecordingPage = z.infer<typeof SessionRecordingPage>;

/** Parameters of `get_sessions_recordings`. */
export const GetSessionsRecordingsParams = z.object({
  target_ws_ids: z.array(z.string()),
  /** Default false. */
  preauth_download_link: z.boolean().optional(),
});
/** Parameters of `get_sessions_recordings`. */
export type GetSessionsRecordingsParams = z.infer<typeof GetSessionsRecordingsParams>;

/** The answer of `get_sessions_recordings`: recordings per session id. */
export const SessionsRecordings = z.object({
  ws_sessions: z.record(z.string(), z.object({ session_recordings: z.array(SessionRecording) })),
});
/** The answer of `get_sessions_recordings`. */
export type SessionsRecordings = z.infer<typeof SessionsRecordings>;

// What an error of this layer tells a person to do next, in the words of the face they use. The
// command line names its flags and commands (src/cli/api-words.ts, handed to the client it makes);
// the library and the MCP server read these defaults, which name neither: a library user has no
// `--timeout`, a model no `agentctl auth status`. Only the hints differ; the facts (status, path,
// sizes) are the same for every face.

export interface FaceWords {
  /** A request that got no answer within its time limit. */
  timeout: string;
  /** The service refused the API key (401, 403). */
  auth: string;
  /** Nothing listens at the built-in default address (the command line's emulator); undefined says nothing. */
  nothingAtDefault?: string;
  /** An answer over the largest size read at all (`limit`, e.g. "500 MB"). */
  bodyAtCeiling: (limit: string) => string;
  /** An answer over the size limit in use, which can be raised up to `ceilingMb`. */
  bodyTooLarge: (ceilingMb: number) => string;
  /** A base URL without its /api/v1, and the one to use. */
  missingApiVersion: (baseUrl: string, suggested: string) => string;
  /** A redirect that looks like the whole service moved to `moved`. */
  moved: (moved: string) => string;
  /** Any other redirect. */
  checkBaseUrl: string;
  /** How to see whether a write whose outcome is unknown took effect (`path` below the base URL). */
  checkWrite: (path: string) => string;
  /** The end of a partial list's hint: reading on from `page`. */
  readOnFrom: (page: number) => string;
  /** How far a read of a whole timeline goes, in a message. */
  wholeTimeline: string;
  /** Older events past the deepest window a read of the timeline goes to. */
  olderFrom: (cursor: string) => string;
}

/** The words of the library and the MCP server: what to do, naming no flag and no command. */
export const NEUTRAL_WORDS: FaceWords = {
  timeout: 'the service did not answer in time; try again later, or allow a longer request time limit',
  auth: 'check the API key',
  bodyAtCeiling: (limit) => `${limit} is the most agentctl reads; fetch it with another tool, or ask for less (a smaller page size)`,
  bodyTooLarge: (ceilingMb) => `if the answer really is this big, raise the limit on an answer's size (up to ${ceilingMb} MB; see docs/limits.md)`,
  missingApiVersion: (baseUrl, suggested) => `the base URL ${baseUrl} lacks /api/v1: use ${suggested}`,
  moved: (moved) => `if the service has moved to ${moved} and you trust it, use that as the base URL`,
  checkBaseUrl: 'the API key goes only to the base URL you set; check it',
  checkWrite: () => 'list the records it would have created or changed',
  readOnFrom: (page) => `, or read on page by page from page ${page}`,
  wholeTimeline: 'as far as one read of the whole timeline goes',
  olderFrom: (cursor) => `older events: read the timeline again, direction older, from cursor ${cursor}`,
};

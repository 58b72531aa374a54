/**
 * The result value every operation returns, and the small helpers that build it.
 * Checks inside the reference return a `Fault` (code + message, no position);
 * the operation that knows where it is attaches the seq or line.
 */

/** Every rejection code of spec/errors.md (the "Rejection codes" table). */
export const ERROR_CODES = [
  'ENV_NOT_OBJECT', 'ENV_UNKNOWN_KEY', 'ENV_TYPE_INVALID', 'ENV_SEQ_INVALID', 'ENV_SEQ_NOT_CONTIGUOUS',
  'ENV_TIME_INVALID', 'ENV_DATA_MISSING', 'ENV_IGNORABLE_INVALID',
  'JSON_NEGATIVE_ZERO', 'JSON_NON_FINITE', 'JSON_UNDEFINED', 'JSON_SPARSE_ARRAY', 'JSON_CYCLE',
  'JSON_NON_PLAIN_OBJECT', 'JSON_UNSUPPORTED_VALUE',
  'HEADER_NOT_OBJECT', 'HEADER_ID_MISMATCH', 'HEADER_FIELD_INVALID', 'HEADER_CWD_NOT_ABSOLUTE',
  'MESSAGE_ID_INVALID', 'MESSAGE_ROLE_INVALID', 'MESSAGE_SOURCE_INVALID', 'MESSAGE_CONTENT_INVALID',
  'MESSAGE_CALL_ID_MISMATCH', 'PAYLOAD_INVALID', 'REQUEST_HEADER_INVALID',
  'SURFACE_OP_MISSING', 'SURFACE_OP_NOT_ALLOWED', 'SURFACE_OP_INVALID', 'SURFACE_REPLACE_START_NOT_FOUND',
  'SURFACE_REPLACE_END_NOT_FOUND', 'SURFACE_REPLACE_REVERSED',
  'PROVENANCE_NOT_ARRAY', 'PROVENANCE_EMPTY', 'PROVENANCE_ELEMENT_INVALID', 'PROVENANCE_DUPLICATE',
  'PROVENANCE_NOT_EARLIER', 'PROVENANCE_INCOMPLETE',
  'REWRITE_SPAN_INVALID', 'REWRITE_TARGET_INVALID', 'REWRITE_DATA_CHANGED',
  'TURN_ALREADY_OPEN', 'TURN_NUMBER_INVALID', 'TURN_NOT_OPEN', 'TURN_END_MISMATCH', 'TURN_END_STEP_OPEN',
  'STEP_ALREADY_OPEN', 'STEP_NUMBER_INVALID', 'STEP_NOT_OPEN', 'STEP_MISMATCH', 'TURN_END_MALFORMED',
  'TOOL_RESULT_ORPHAN',
  'COMPACTION_ALREADY_OPEN', 'COMPACTION_NOT_OPEN', 'COMPACTION_ID_INVALID', 'COMPACTION_ID_MISMATCH',
  'COMPACTION_OWNER_MISMATCH', 'COMPACTION_SUMMARY_DUPLICATE', 'COMPACTION_SUMMARY_INVALID',
  'COMPACTION_END_WITHOUT_SUMMARY', 'COMPACTION_TURN_CROSSES_BRACKET', 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET',
  'COMPACTION_CLAIM_MISMATCH', 'COMPACTION_BUSY', 'COMPACTION_NO_OPEN_TURN',
  'REGION_NOT_ON_SURFACE', 'REGION_REVERSED', 'REGION_ORPHAN_RESULT', 'REGION_UNBALANCED',
  'FORK_OPEN_TURN', 'FORK_INVALID_BOUNDARY',
  'FORMAT_VERSION_NEWER', 'FORMAT_VERSION_OLDER', 'FORMAT_UNKNOWN_EVENT_TYPE',
  'LEGACY_EVENT_TYPE', 'LEGACY_FALLBACK_REASON', 'LEGACY_SHAPE_MALFORMED',
  'JSONL_HEADER_INVALID', 'JSONL_HEADER_RETIRED_FIELD', 'JSONL_LINE_UNPARSABLE', 'JSONL_ROW_INVALID',
  'JSONL_SEQ_GAP', 'JSONL_FRAME_INVALID',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** A broken rule, before the operation says where it happened. */
export interface Fault {
  code: ErrorCode
  message: string
}

export interface RejectionError {
  code: ErrorCode
  seq?: number
  line?: number
  message: string
}

export type Accepted<T> = { ok: true; value: T }
export type Rejected = { ok: false; error: RejectionError }
export type Result<T> = Accepted<T> | Rejected

/** Where a fault lies: the seq (or record index) of an event, or a 1-based storage line. */
export interface Position {
  seq?: number
  line?: number
}

export function fault(code: ErrorCode, message: string): Fault {
  return { code, message }
}

export function accept<T>(value: T): Accepted<T> {
  return { ok: true, value }
}

export function reject(code: ErrorCode, message: string, position: Position = {}): Rejected {
  return { ok: false, error: { code, ...position, message } }
}

/** Turn a positionless fault into a rejection at `position`. */
export function rejectAt(found: Fault, position: Position = {}): Rejected {
  return reject(found.code, found.message, position)
}

// The one table that turns what @deepseek-ai/dsh-session throws into the codes of spec/errors.md.
// Upstream rejects with plain Errors told apart only by their text (fork errors also carry `.code`,
// matched here as "CODE: message"). Each rule was written by reading every `throw` in
// packages/core/session/src/{index,surface,chunk-rows,invariant}.ts and the compaction companion
// (packages/compaction/compaction/src/invariant.ts) at the pinned commit; `example` is one message the
// rule must catch, and tests/adapters/dsh-session.test.ts checks that no earlier rule shadows it.
// Rules run in order, first match wins. A message no rule matches becomes code UNMAPPED, which no
// spec code is, so the runner fails it and warns of it (conformance/run-case.ts): never a pass.
import type { OperationResult } from '../../expectations.ts'
import { seqForRecord } from '../../../reference/envelope.ts'
import { isRecord } from '../../../reference/lossless-json.ts'
import { upstreamEnvelopeFault, upstreamJsonFault } from './upstream-order.ts'

/**
 * Upstream gives no reason for two rejections: "not losslessly JSON-serializable" and "invalid event
 * envelope". For those the rule names which value upstream judged, and a mirror of upstream's own check
 * (upstream-order.ts) names the fault that check stopped at: the first in its walk order, which for a
 * value of several faults is not the one JSON-13's priority names. The mirror runs only after upstream
 * has rejected, so it can change a code but never turn an acceptance into a rejection; when it finds no
 * fault, the code is UNMAPPED.
 */
export type Refinement =
  | { kind: 'json'; subject: 'record' | 'header' | 'data' | 'markers' }
  | { kind: 'envelope' }

export interface CodeRule {
  pattern: RegExp
  /** A code of spec/errors.md; for a refined rule, the family the refinement picks from. */
  code: string
  refine?: Refinement
  note: string
  example: string
}

export const UNMAPPED = 'UNMAPPED'

export const ERROR_CODE_TABLE: readonly CodeRule[] = [
  // ---- session header (index.ts: validateSessionHeader, snapshotSessionHeader) ----
  { pattern: /session header is not a plain JSON record/, code: 'HEADER_NOT_OBJECT', note: 'non-object header, or a restored header with a foreign prototype', example: 'session header is not a plain JSON record' },
  { pattern: /session header is not losslessly JSON-serializable/, code: 'JSON_*', refine: { kind: 'json', subject: 'header' }, note: 'header outside the lossless JSON domain (create path only)', example: 'session header is not losslessly JSON-serializable' },
  { pattern: /session header version must be 0, got/, code: 'HEADER_FIELD_INVALID', note: 'the session has no refusal: a version other than the number 0 is an invalid header (numeric versions are refused earlier by the adapter, as the persistence load does)', example: 'session header version must be 0, got 0' },
  { pattern: /session header id ".*" does not match session id/, code: 'HEADER_ID_MISMATCH', note: 'header id differs from the id the session is built for', example: 'session header id "a" does not match session id "b"' },
  { pattern: /session header createdAt must be a non-negative safe integer/, code: 'HEADER_FIELD_INVALID', note: 'META-6', example: 'session header createdAt must be a non-negative safe integer' },
  { pattern: /session header cwd must be a string/, code: 'HEADER_FIELD_INVALID', note: 'META-7, non-string cwd', example: 'session header cwd must be a string' },
  { pattern: /session header cwd must be an absolute path/, code: 'HEADER_CWD_NOT_ABSOLUTE', note: 'META-7; node:path isAbsolute of the running platform', example: 'session header cwd must be an absolute path, got "work"' },
  { pattern: /session header (parentSession|seedLength|origin|delegationDepth|agentPreset) must/, code: 'HEADER_FIELD_INVALID', note: 'META-8', example: 'session header origin must be "subagent"' },

  // ---- one seed or appended event (index.ts: constructor, append, assertSessionEventEnvelope) ----
  { pattern: /uses unsupported legacy request\/header-delta format/, code: 'LEGACY_EVENT_TYPE', note: 'seed (before the envelope) and append; mode/set is not rejected by the session at all', example: 'seed event at index 2 uses unsupported legacy request/header-delta format' },
  { pattern: /uses unsupported legacy request\/header reason "fallback"/, code: 'LEGACY_FALLBACK_REASON', note: 'seed (after the envelope) and append', example: 'session event "request/header" uses unsupported legacy request/header reason "fallback"' },
  { pattern: /seed event at index \d+ is not losslessly JSON-serializable/, code: 'JSON_*', refine: { kind: 'json', subject: 'record' }, note: 'the whole seed record, create path', example: 'seed event at index 0 is not losslessly JSON-serializable' },
  { pattern: /seed event at index \d+ has an invalid event envelope/, code: 'ENV_*', refine: { kind: 'envelope' }, note: 'one message for every envelope fault (keys, type, seq, time, data, ignorable) and for a non-object record', example: 'seed event at index 1 has an invalid event envelope' },
  { pattern: /seed event at index \d+ has seq .* seed must be contiguous from 0/, code: 'ENV_SEQ_NOT_CONTIGUOUS', note: 'seed seq differs from its index', example: 'seed event at index 1 has seq 2 (expected 1); seed must be contiguous from 0' },
  { pattern: /request\/header at index \d+ lacks provider\/model/, code: 'REQUEST_HEADER_INVALID', note: 'HDR-2, seed only', example: 'seed request/header at index 3 lacks provider/model' },
  { pattern: /request\/header at index \d+ has an invalid reasoningEffort/, code: 'REQUEST_HEADER_INVALID', note: 'HDR-2, seed only', example: 'seed request/header at index 3 has an invalid reasoningEffort' },
  { pattern: /request\/header at index \d+ has invalid adapterDefaults/, code: 'REQUEST_HEADER_INVALID', note: 'HDR-2, seed only', example: 'seed request/header at index 3 has invalid adapterDefaults' },
  { pattern: /lacks an identified message/, code: 'MESSAGE_ID_INVALID', note: 'VOC-9; seed and adoptSessionEvent, never append', example: 'seed user/message at index 0 lacks an identified message' },
  { pattern: /message must have role "/, code: 'MESSAGE_ROLE_INVALID', note: 'VOC-10', example: 'session event at seq 4 message must have role "assistant"' },
  { pattern: /message has invalid source/, code: 'MESSAGE_SOURCE_INVALID', note: 'VOC-11, source not an object with a non-empty kind', example: 'seed tool/result at index 5 message has invalid source' },
  { pattern: /message has invalid content/, code: 'MESSAGE_CONTENT_INVALID', note: 'VOC-12, content not an array', example: 'seed user/message at index 0 message has invalid content' },
  { pattern: /message must have model source/, code: 'MESSAGE_SOURCE_INVALID', note: 'VOC-11, assistant source kind/provider/model', example: 'seed assistant/message at index 2 message must have model source' },
  { pattern: /message must have tool source/, code: 'MESSAGE_SOURCE_INVALID', note: 'VOC-11, tool source kind/callId', example: 'seed tool/result at index 5 message must have tool source' },
  { pattern: /message must contain one tool-result block/, code: 'MESSAGE_CONTENT_INVALID', note: 'VOC-12', example: 'seed tool/result at index 5 message must contain one tool-result block' },
  { pattern: /message has mismatched tool call ids/, code: 'MESSAGE_CALL_ID_MISMATCH', note: 'VOC-13', example: 'session event at seq 5 message has mismatched tool call ids' },
  { pattern: /carries non-JSON-serializable data/, code: 'JSON_*', refine: { kind: 'json', subject: 'data' }, note: 'append: data checked before the surface markers; an absent data member lands here too', example: 'session event "user/message" carries non-JSON-serializable data' },
  { pattern: /carries non-JSON-serializable surface metadata/, code: 'JSON_*', refine: { kind: 'json', subject: 'markers' }, note: 'append: surfaceOp and sourceEventSeqs', example: 'session event "user/message" carries non-JSON-serializable surface metadata' },

  // ---- surface fold (surface.ts: planSurfaceEvent and helpers; seeds wrap these with their index) ----
  { pattern: /session event seq \S+ is not contiguous; expected/, code: 'ENV_SEQ_NOT_CONTIGUOUS', note: 'ENV-9, ENV-10', example: 'session event seq 3 is not contiguous; expected 2' },
  { pattern: /is not surface-eligible and cannot carry (surfaceOp|sourceEventSeqs)/, code: 'SURFACE_OP_NOT_ALLOWED', note: 'SURF-1', example: 'invalid seed event at index 0: session event "turn/start" is not surface-eligible and cannot carry surfaceOp' },
  { pattern: /is surface-eligible and requires a surfaceOp marker/, code: 'SURFACE_OP_MISSING', note: 'SURF-1', example: 'session event "user/message" is surface-eligible and requires a surfaceOp marker' },
  { pattern: /carries an invalid (replace )?surfaceOp/, code: 'SURFACE_OP_INVALID', note: 'SURF-2, both the non-object and the replace-object message', example: 'session event "user/message" carries an invalid replace surfaceOp' },
  { pattern: /sourceEventSeqs on event at seq \S+ must be an array when present/, code: 'PROVENANCE_NOT_ARRAY', note: 'PROV-1', example: 'sourceEventSeqs on event at seq 4 must be an array when present' },
  { pattern: /sourceEventSeqs must not be empty except on assistant\/message/, code: 'PROVENANCE_EMPTY', note: 'PROV-2', example: 'sourceEventSeqs must not be empty except on assistant/message' },
  { pattern: /sourceEventSeqs must densely contain non-negative safe integers/, code: 'PROVENANCE_ELEMENT_INVALID', note: 'PROV-3', example: 'session event "tool/result" sourceEventSeqs must densely contain non-negative safe integers' },
  { pattern: /sourceEventSeqs must not contain duplicates/, code: 'PROVENANCE_DUPLICATE', note: 'PROV-4', example: 'sourceEventSeqs must not contain duplicates' },
  { pattern: /sourceEventSeqs must reference earlier events/, code: 'PROVENANCE_NOT_EARLIER', note: 'PROV-5', example: 'sourceEventSeqs must reference earlier events: 7 >= current seq 7' },
  { pattern: /sourceEventSeqs must include every shadowed surface node/, code: 'PROVENANCE_INCOMPLETE', note: 'PROV-7', example: 'surface replace: sourceEventSeqs must include every shadowed surface node; missing 3' },
  { pattern: /surface replace: start seq \S+ not found in surface/, code: 'SURFACE_REPLACE_START_NOT_FOUND', note: 'SURF-4', example: 'surface replace: start seq 9 not found in surface' },
  { pattern: /surface replace: end seq \S+ not found in surface/, code: 'SURFACE_REPLACE_END_NOT_FOUND', note: 'SURF-4', example: 'surface replace: end seq 9 not found in surface' },
  { pattern: /surface replace: start seq .* is after end seq/, code: 'SURFACE_REPLACE_REVERSED', note: 'SURF-5', example: 'surface replace: start seq 5 (index 1) is after end seq 7 (index 0)' },
  { pattern: /tool\/result surface replacement must rewrite exactly one current node/, code: 'REWRITE_SPAN_INVALID', note: 'REWR-1', example: 'tool/result surface replacement must rewrite exactly one current node' },
  { pattern: /tool\/result surface replacement must target a current tool\/result/, code: 'REWRITE_TARGET_INVALID', note: 'REWR-2', example: 'tool/result surface replacement must target a current tool/result' },
  { pattern: /tool\/result surface replacement may change only content/, code: 'REWRITE_DATA_CHANGED', note: 'REWR-3', example: 'tool/result surface replacement may change only content' },

  // ---- store fork (index.ts: SessionStore.fork, SessionForkError.code) ----
  { pattern: /^INVALID_BOUNDARY: /, code: 'FORK_INVALID_BOUNDARY', note: 'FORK-2', example: 'INVALID_BOUNDARY: fork boundary 4 does not exist in session "s" (last seq: 3)' },
  { pattern: /^OPEN_TURN: /, code: 'FORK_OPEN_TURN', note: 'FORK-3; the message names the turn number, the adapter finds its turn/start', example: 'OPEN_TURN: fork boundary 1 in session "s" ends inside open turn 1' },

  // ---- packed chunk rows (chunk-rows.ts: decodeStorageRecord) ----
  { pattern: /^malformed (text|reasoning|tool-call)-chunks storage row: /, code: 'JSONL_ROW_INVALID', note: 'ROW-3; the package has no torn-tail rule, so every bad row is reported', example: 'malformed text-chunks storage row: dt length 2 does not match 2 members' },

  // ---- session invariant companion (invariant.ts); the adapter's failure callback gets the bare text ----
  { pattern: /^seq must strictly increase: saw/, code: 'ENV_SEQ_NOT_CONTIGUOUS', note: 'never reached on a loaded log', example: 'seq must strictly increase: saw 3 after 3' },
  { pattern: /^turn\/start \S+ while turn \S+ is still open/, code: 'TURN_ALREADY_OPEN', note: 'TURN-5', example: 'turn/start 2 while turn 1 is still open' },
  { pattern: /^turn\/start expected turn \S+, got/, code: 'TURN_NUMBER_INVALID', note: 'TURN-4', example: 'turn/start expected turn 2, got 1' },
  { pattern: /^turn\/end \S+ does not match open turn null$/, code: 'TURN_NOT_OPEN', note: 'TURN-6: upstream reports no open turn as a mismatch with null', example: 'turn/end 1 does not match open turn null' },
  { pattern: /^turn\/end \S+ does not match open turn/, code: 'TURN_END_MISMATCH', note: 'TURN-6', example: 'turn/end 2 does not match open turn 1' },
  { pattern: /^turn\/end \S+ while step \S+ is still open/, code: 'TURN_END_STEP_OPEN', note: 'TURN-6', example: 'turn/end 1 while step 1 is still open' },
  { pattern: /^step\/start in turn \S+ but open turn is null$/, code: 'TURN_NOT_OPEN', note: 'TURN-7', example: 'step/start in turn 1 but open turn is null' },
  { pattern: /^step\/start in turn \S+ but open turn is/, code: 'STEP_MISMATCH', note: 'TURN-7', example: 'step/start in turn 2 but open turn is 1' },
  { pattern: /^step\/start \S+ while step \S+ is still open/, code: 'STEP_ALREADY_OPEN', note: 'TURN-7', example: 'step/start 2 while step 1 is still open' },
  { pattern: /^step\/start expected step/, code: 'STEP_NUMBER_INVALID', note: 'TURN-7', example: 'step/start expected step 2 in turn 1, got 3' },
  { pattern: /names turn \S+\/step \S+ but open is turn null\//, code: 'TURN_NOT_OPEN', note: 'TURN-8: one upstream message for three cases, told apart by the open state it prints', example: 'assistant/chunk names turn 1/step 1 but open is turn null/step null' },
  { pattern: /names turn \S+\/step \S+ but open is turn \S+\/step null$/, code: 'STEP_NOT_OPEN', note: 'TURN-8', example: 'tool/call names turn 1/step 2 but open is turn 1/step null' },
  { pattern: /names turn \S+\/step \S+ but open is turn/, code: 'STEP_MISMATCH', note: 'TURN-8', example: 'step/end names turn 1/step 2 but open is turn 1/step 1' },
  { pattern: /^tool\/result surface replacement appended outside any open turn/, code: 'TURN_NOT_OPEN', note: 'REWR-5, TURN-9', example: 'tool/result surface replacement appended outside any open turn' },
  { pattern: /^tool\/result for .* with no prior tool\/call in this step/, code: 'TOOL_RESULT_ORPHAN', note: 'PAIR-2..4', example: 'tool/result for call-1 with no prior tool/call in this step' },
  { pattern: /appended outside any open turn \(core execution events must be turn-enclosed\)/, code: 'TURN_NOT_OPEN', note: 'TURN-9: request/header, request/context, todo/write', example: 'todo/write appended outside any open turn (core execution events must be turn-enclosed)' },

  // ---- compaction invariant companion (compaction/src/invariant.ts) ----
  { pattern: /^compaction checkpoint (compactionId|sourceCommandId) must be a non-empty string/, code: 'COMPACTION_ID_INVALID', note: 'COMP-1 on a checkpoint source', example: 'compaction checkpoint compactionId must be a non-empty string' },
  { pattern: /^compaction checkpoint has no matching compaction\/start/, code: 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', note: 'COMP-9', example: 'compaction checkpoint has no matching compaction/start' },
  { pattern: /^compaction checkpoint (id|sourceCommandId) .* does not match compaction\/start/, code: 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', note: 'COMP-9', example: 'compaction checkpoint sourceCommandId undefined does not match compaction/start sourceCommandId cmd-1' },
  { pattern: /^compaction\/(start|summary|end) (compactionId|sourceCommandId) must be a non-empty string/, code: 'COMPACTION_ID_INVALID', note: 'COMP-1', example: 'compaction/start compactionId must be a non-empty string' },
  { pattern: /^turn\/(start|end) cannot cross an open/, code: 'COMPACTION_TURN_CROSSES_BRACKET', note: 'COMP-8', example: 'turn/start cannot cross an open standalone compaction' },
  { pattern: /^compaction\/start while .* is still compacting/, code: 'COMPACTION_ALREADY_OPEN', note: 'COMP-2', example: 'compaction/start while turn 1 is still compacting' },
  { pattern: /^compaction\/(start|summary|end) is standalone but turn \S+ is open/, code: 'COMPACTION_OWNER_MISMATCH', note: 'COMP-3', example: 'compaction/start is standalone but turn 2 is open' },
  { pattern: /^compaction\/(start|summary|end) for turn \S+ appended outside any open turn/, code: 'COMPACTION_OWNER_MISMATCH', note: 'COMP-3', example: 'compaction/summary for turn 1 appended outside any open turn' },
  { pattern: /^compaction\/(start|summary|end) names turn \S+ but open turn is/, code: 'COMPACTION_OWNER_MISMATCH', note: 'COMP-3', example: 'compaction/start names turn 2 but open turn is 1' },
  { pattern: /^compaction\/(summary|end) has no matching compaction\/start/, code: 'COMPACTION_NOT_OPEN', note: 'COMP-4', example: 'compaction/end has no matching compaction/start' },
  { pattern: /^compaction\/(summary|end) (id|sourceCommandId) .* does not match compaction\/start/, code: 'COMPACTION_ID_MISMATCH', note: 'COMP-4', example: 'compaction/summary id c2 does not match compaction/start id c1' },
  { pattern: /^compaction\/summary repeated within one compaction/, code: 'COMPACTION_SUMMARY_DUPLICATE', note: 'COMP-5', example: 'compaction/summary repeated within one compaction' },
  { pattern: /^compaction\/summary (shadowedSeqs|shadowedRange|shadowedTokenCount) must/, code: 'COMPACTION_SUMMARY_INVALID', note: 'COMP-5', example: 'compaction/summary shadowedRange must match the first and last shadowedSeqs' },
  { pattern: /^compaction\/end owner .* does not match compaction\/start owner/, code: 'COMPACTION_OWNER_MISMATCH', note: 'COMP-3, end.turn against the start', example: 'compaction/end owner null does not match compaction/start owner 1' },
  { pattern: /^successful compaction\/end requires one compaction\/summary/, code: 'COMPACTION_END_WITHOUT_SUMMARY', note: 'COMP-6', example: 'successful compaction/end requires one compaction/summary' },
]

/** The text a thrown value is matched by: fork errors lead with their code. */
export function thrownText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code
    return error.name === 'SessionForkError' && typeof code === 'string' ? `${code}: ${error.message}` : error.message
  }
  return String(error)
}

export function ruleFor(text: string): CodeRule | undefined {
  return ERROR_CODE_TABLE.find(rule => rule.pattern.test(text))
}

/**
 * Where a message says the fault is: the index of a seed record, read only from the prefix upstream's
 * seed messages start with ("seed event at index N", "seed <type> at index N", "invalid seed event at
 * index N"). No seq is read off a message: messages print a record's stated seq through String()
 * (1.5, -0 as "0", "7", 2^53), which is not the seq PROC-1 gives, so the operation passes the judged
 * event's seq as context instead. And a header string (a cwd, an id, a version) may hold "at index N"
 * anywhere else in a message.
 */
export function positionIn(text: string): { index?: number } {
  const index = /^(?:invalid )?seed \S+ at index (\d+)\b/.exec(text)
  return index ? { index: Number(index[1]) } : {}
}

/** What the operation knows about the values upstream judged. */
export interface RejectionContext {
  /** The seq of the one event upstream judged, when the operation knows it: it wins over an index the message names. */
  seq?: number
  line?: number
  /** The seed records, to turn a message's index into a seq and to name a reasonless fault. */
  records?: readonly unknown[]
  header?: unknown
  /** The id the session was built for: without a header, upstream judges the header it synthesises from it. */
  sessionId?: unknown
  /** An append candidate. */
  candidate?: unknown
}

/**
 * The fault upstream's own check stopped at (upstream-order.ts), not the one the spec ranks first,
 * which upstream never looked for. A header the operation gave none of was built by upstream from the
 * session id; with no id in the context either, which header upstream judged is unknown.
 */
function refinedCode(refine: Refinement, record: unknown, context: RejectionContext): string {
  if (refine.kind === 'envelope') return isRecord(record) ? upstreamEnvelopeFault(record) ?? UNMAPPED : 'ENV_NOT_OBJECT'
  const candidate = isRecord(context.candidate) ? context.candidate : {}
  switch (refine.subject) {
    case 'record': return upstreamJsonFault(record) ?? UNMAPPED
    case 'header': {
      if (context.header === undefined && !('sessionId' in context)) return UNMAPPED
      return upstreamJsonFault(context.header === undefined ? { version: 0, id: context.sessionId, createdAt: 0 } : context.header) ?? UNMAPPED
    }
    case 'data': return Object.hasOwn(candidate, 'data') ? upstreamJsonFault(candidate['data']) ?? UNMAPPED : 'ENV_DATA_MISSING'
    case 'markers': {
      const markers = Object.fromEntries(['sourceEventSeqs', 'surfaceOp'].filter(key => candidate[key] !== undefined).map(key => [key, candidate[key]]))
      return upstreamJsonFault(markers) ?? UNMAPPED
    }
  }
}

/**
 * The seq a rejection of the input record at `index` carries (PROC-1). The reference's
 * `seqForRecord` reads records that load has already snapshotted; the adapter hands it raw input,
 * where a record that cannot be read (a revoked proxy, U27) has no usable seq rather than a throw.
 */
export function inputSeq(record: unknown, index: number): number {
  try {
    return seqForRecord(record, index)
  } catch {
    return index
  }
}

/** The rejection result for anything upstream threw. */
export function upstreamRejection(error: unknown, context: RejectionContext = {}): OperationResult {
  const text = thrownText(error)
  const rule = ruleFor(text)
  const position = positionIn(text)
  const record = position.index === undefined ? undefined : context.records?.[position.index]
  const seq = context.seq ?? (position.index !== undefined ? inputSeq(record, position.index) : undefined)
  const code = rule === undefined ? UNMAPPED : rule.refine ? refinedCode(rule.refine, record, context) : rule.code
  const kind = error instanceof Error && rule === undefined ? `${error.name}: ` : ''
  return {
    ok: false,
    error: {
      code,
      ...(seq === undefined ? {} : { seq }),
      ...(context.line === undefined ? {} : { line: context.line }),
      message: `upstream ${kind}${text}${code === UNMAPPED ? ' (no rule of conformance/adapters/dsh-session/error-codes.ts names a spec code for it)' : ''}`,
    },
  }
}

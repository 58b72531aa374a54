// The load probe, one plan in eight of those the fault-pair edit leaves (surface-check-order.ts), over
// a valid log in current shapes with one plugin event (session/title, plan/mode, permission/preset,
// feedback/record, or the foreign acme/telemetry) retyped as a surface type in other letter case
// (`User/message`, `assistant/Message`, `TOOL/RESULT`) or with white space at an end (`tool/result `,
// ` user/message`, `assistant/message` and a tab) and marked ignorable: types compare exactly, so it is
// an unknown type that the vocabulary phase lets through (UNK-4) and a log-only event, and the log
// still loads; or, one time in two, the same event carrying `surfaceOp: "append"`, which no log-only
// event may carry (SURF-1: SURFACE_OP_NOT_ALLOWED at its seq). A port that folds case or trims white
// space when it asks whether a type joins the surface answers otherwise both times. The generators
// write no such type. Drawn from a seed of the run's plan, as the headerEquals pairs are
// (header-pairs.ts), so the fuzzer's other draws stay as they were and a shrunk log draws alike.
import { saltedChooser } from '../generators/index.ts'
import { atOneOf, indexesWhere, typeOf } from './record-edits.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const TYPE_LOOKALIKE_SALT = 0x4c4b4c4b

/** Log-only types that no rule of load reads beyond their payload shape (VOC-15, UNK-4). */
const PLUGIN_TYPES = new Set(['session/title', 'plan/mode', 'permission/preset', 'feedback/record', 'acme/telemetry'])

/** The three surface types (SURF-1), each in other letter case, and each with white space at an end. */
const LOOKALIKES = ['User/message', 'assistant/Message', 'TOOL/RESULT', 'tool/result ', ' user/message', 'assistant/message\t']

/**
 * The log with one plugin event retyped as a surface type's lookalike, marked ignorable, and one time
 * in two given an append op; undefined when the draw keeps the log or it holds no plugin event. Whether
 * to edit is drawn before any look at the log.
 */
export function withSurfaceTypeLookalike(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, TYPE_LOOKALIKE_SALT)
  if (chooser.int(8) !== 0) return undefined
  const type = LOOKALIKES[chooser.int(LOOKALIKES.length)]
  const marker = chooser.int(2) === 0 ? { surfaceOp: 'append' } : {}
  return atOneOf(events, indexesWhere(events, event => PLUGIN_TYPES.has(typeOf(event) as string)), chooser,
    event => ({ ...event, type, ignorable: true, ...marker }))
}

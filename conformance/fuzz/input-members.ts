// Edits of the members an artifactPath, fork or store probe is given, which the spec still defines;
// each drawn from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so the
// fuzzer's other draws stay as they were:
// - one artifactPath or fork probe in four gives optional members as undefined, which counts as absent
//   (PROC-10): artifactPath its `encoding`, and its `cwd` when the header has none; fork its
//   `sessionId`, or its `header` (half each). A port that asks whether a member is there, not what it
//   holds, answers as if it were given. (compactionState's `entry` has a draw of its own,
//   compaction-entries.ts.)
// - one fork in eight is made at a `now` earlier than the source's `createdAt` and every event's time,
//   and one more in eight at a `now` of 0, the earliest: the child's `createdAt` and its marker's time
//   are `now` all the same (FORK-5, FORK-6), where a port's `now || Date.now()` takes the clock;
// - one store in sixteen is given its header as undefined, which is no optional input: the value
//   undefined, refused before anything is stored (STORE-1, STORE-4), never a header the layer makes up;
// - one load or fork over a valid log in current shapes in eight, where no other edit or variant
//   changed it (a fork's boundary one of the log's seqs), is given a `sessionId`: the header's own id,
//   another one, the empty string or null (META-2: a string equal code unit for code unit, or
//   HEADER_ID_MISMATCH; FORK-5: the child's parentSession is the sessionId when it is a string).
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser } from '../generators/index.ts'

/** Salt the plan's seed, so that these draws are none of the other edits' nor the batch cuts'. */
const UNDEFINED_MEMBERS_SALT = 0x554e4446
const EARLY_NOW_SALT = 0x4e4f5745
const STORE_HEADER_SALT = 0x53544855
const SESSION_ID_SALT = 0x53534944

/** How a probe given undefined members leaves the others' inputs: classes of their own (compare.ts). */
export const UNDEFINED_MEMBERS_VARIANT = 'optional members undefined'
export const STORE_HEADER_UNDEFINED_VARIANT = 'header undefined'

/** Before every time the generators write (their headers are made from 1,786,000,000,000 on). */
export const EARLY_NOW = 1_700_000_000_000

/** The members an artifactPath or fork probe gets as undefined, beside `extra`; undefined when the draw adds none. */
export function undefinedMembers(operation: 'artifactPath' | 'fork', extra: Record<string, unknown>, planSeed: number): Record<string, unknown> | undefined {
  const chooser = saltedChooser(planSeed, UNDEFINED_MEMBERS_SALT)
  if (chooser.int(4) !== 0) return undefined
  if (operation === 'artifactPath') return { ...(Object.hasOwn(extra, 'cwd') ? {} : { cwd: undefined }), encoding: undefined }
  return chooser.int(2) === 0 ? { sessionId: undefined } : { header: undefined }
}

/** The `now` the run's fork is made at: EARLY_NOW, 0, or else `now`. */
export function forkNow(planSeed: number, now: number): number {
  const draw = saltedChooser(planSeed, EARLY_NOW_SALT).int(8)
  return draw === 0 ? EARLY_NOW : draw === 1 ? 0 : now
}

/** Whether the run's store probe is given its header as undefined. */
export function storesWithoutHeader(planSeed: number): boolean {
  return saltedChooser(planSeed, STORE_HEADER_SALT).int(16) === 0
}

/** The `sessionId` member the run's load or fork probe is given, or undefined when the draw gives none. */
export function sessionIdMember(header: unknown, planSeed: number): { sessionId: string | null } | undefined {
  const chooser = saltedChooser(planSeed, SESSION_ID_SALT)
  if (chooser.int(8) !== 0 || !isRecord(header) || typeof header['id'] !== 'string') return undefined
  const id = header['id']
  const ids = [id, `${id}-other`, '', null]
  return { sessionId: ids[chooser.int(ids.length)]! }
}

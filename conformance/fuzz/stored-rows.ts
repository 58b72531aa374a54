// The decodeJsonl probe, one time in four, over an artifact with one packed chunk row edited out of the
// range ROW-3 allows: a zero in `dt` written as `-0`, or `seq0` so large that the row's last member
// would be 2^53. No writer following ROW-7 stores either, but a reader meets them in damaged or foreign
// files, and ROW-3 says how it answers. The edit is drawn from a seed of the run's plan, as the
// headerEquals pairs are (header-pairs.ts), so the fuzzer's other draws stay as they were; its
// disagreements are a class of their own (compare.ts).
import { readStorageRecord } from '../../reference/chunk-rows.ts'
import { seededChooser } from '../generators/index.ts'

/** The variant of the probes over such artifacts (Probe.variant). */
export const STORED_ROW_VARIANT = 'stored rows out of range'

/** Salts the plan's seed, so that this draw is not the context edit's, the header pair's or the batch cuts'. */
const STORED_ROW_SALT = 0x524f5753

/** JSON.stringify writes -0 as 0: the edited member holds this string until the text is written. */
const NEGATIVE_ZERO_MARK = '\u0000negative zero\u0000'

/** A row whose `dt` holds a zero: that zero as `-0` (ROW-3 item 9; a decoder that turns it into zero
 * yields the very events the row stood for). */
function zeroDtAsNegative(row: Record<string, unknown>): string | undefined {
  const data = row['data'] as Record<string, unknown>
  const dt = data['dt'] as number[]
  const zero = dt.indexOf(0)
  if (zero === -1) return undefined
  const edited = { ...row, data: { ...data, dt: dt.map((delta, index) => (index === zero ? NEGATIVE_ZERO_MARK : delta)) } }
  return JSON.stringify(edited).replace(JSON.stringify(NEGATIVE_ZERO_MARK), '-0')
}

/** The row moved so that `seq0 + n` is exactly 2^53 + 1: its last member's seq is 2^53 (ROW-3 item 11). */
function lastSeqUnsafe(row: Record<string, unknown>): string {
  const data = row['data'] as Record<string, unknown>
  const members = ((data['texts'] ?? data['args']) as unknown[]).length
  // 2^53 + 1 - members, in an order binary64 computes exactly (2^53 + 1 itself rounds to 2^53).
  return JSON.stringify({ ...row, seq0: Number.MAX_SAFE_INTEGER - members + 2 })
}

/**
 * The artifact's text with one packed row edited, or undefined when the draw keeps the text or the text
 * holds no row the drawn edit applies to. The draws come before any look at the text, so a shrunk log
 * draws alike.
 */
export function withStoredRowOutOfRange(text: string, planSeed: number): string | undefined {
  const chooser = seededChooser((planSeed ^ STORED_ROW_SALT) >>> 0)
  if (chooser.int(4) !== 0) return undefined
  const edit = chooser.int(2) === 0 ? zeroDtAsNegative : lastSeqUnsafe
  const pickAt = chooser.int(1000)
  const lines = text.split('\n')
  const rows = lines.flatMap((line, index) => {
    if (index === 0 || line === '') return []
    const record = JSON.parse(line) as unknown
    // A row the reference accepts: a log an operator broke can hold a record tagged as a row that is none.
    const read = readStorageRecord(record)
    return read.ok && read.events.row !== undefined ? [{ index, row: record as Record<string, unknown> }] : []
  })
  const edits = rows.flatMap(({ index, row }) => {
    const line = edit(row)
    return line === undefined ? [] : [{ index, line }]
  })
  if (edits.length === 0) return undefined
  const chosen = edits[Math.floor((pickAt * edits.length) / 1000)]!
  lines[chosen.index] = chosen.line
  return lines.join('\n')
}

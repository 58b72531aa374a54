// The decodeJsonl probe, one plan in four, over an artifact with one packed chunk row (when it holds
// one) edited out of the range ROW-3 allows: an element of `dt` written as `-0`; `seq0` so large that
// the row's last member would be 2^53; times that leave the safe integers in the middle of the row
// only; `null` for its turn, step or a text, which a decoder into typed fields reads as 0 or "", or
// `true` for its turn, step or a gap, which a decoder converting values reads as 1; or the row cut to
// its first member with no `dt`, which a decoder taking a one-member row's `dt` as optional accepts. No
// writer following ROW-7 stores any of them, but a reader meets them in damaged or foreign files, and
// ROW-3 says how it answers. The edit is drawn from a seed of the run's plan, as the headerEquals pairs
// are (header-pairs.ts), so the fuzzer's other draws stay as they were; its disagreements are a class
// of their own (compare.ts).
import { readStorageRecord } from '../../reference/chunk-rows.ts'
import { saltedChooser } from '../generators/index.ts'

/** The variant of the probes over such artifacts (Probe.variant). */
export const STORED_ROW_VARIANT = 'stored rows out of range'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const STORED_ROW_SALT = 0x524f5753

/** JSON.stringify writes -0 as 0: the edited member holds this string until the text is written. */
const NEGATIVE_ZERO_MARK = '\u0000negative zero\u0000'

/**
 * The row with an element of `dt` written as `-0` (ROW-3 item 9): a zero when it holds one, so that a
 * decoder that drops the sign yields the very events the row stood for, else the first element.
 */
function dtAsNegativeZero(row: Record<string, unknown>): string {
  const data = row['data'] as Record<string, unknown>
  const dt = data['dt'] as number[]
  const edited = Math.max(dt.indexOf(0), 0)
  const written = { ...row, data: { ...data, dt: dt.map((delta, index) => (index === edited ? NEGATIVE_ZERO_MARK : delta)) } }
  return JSON.stringify(written).replace(JSON.stringify(NEGATIVE_ZERO_MARK), '-0')
}

/** The row moved so that `seq0 + n` is exactly 2^53 + 1: its last member's seq is 2^53 (ROW-3 item 11). */
function lastSeqUnsafe(row: Record<string, unknown>, members: number): string {
  // 2^53 + 1 - members, in an order binary64 computes exactly (2^53 + 1 itself rounds to 2^53).
  return JSON.stringify({ ...row, seq0: Number.MAX_SAFE_INTEGER - members + 2 })
}

/**
 * The row's second member stamped 2^53 + 3 and the third 2^53 - 7 (ROW-3 item 12), with `time0` and
 * every later member safe: a check of the row's ends alone, or of the sum of the gaps, passes it.
 */
function middleTimeUnsafe(row: Record<string, unknown>): string {
  const data = row['data'] as Record<string, unknown>
  const dt = (data['dt'] as number[]).map((_, index) => (index === 0 ? 5 : index === 1 ? -10 : 0))
  return JSON.stringify({ ...row, time0: Number.MAX_SAFE_INTEGER - 1, data: { ...data, dt } })
}

/** The row with `null` for its turn, its step (ROW-3 item 7) or the first element of its payload (item 8). */
function nullMember(member: 'turn' | 'step' | 'text'): (row: Record<string, unknown>) => string {
  return row => {
    const data = row['data'] as Record<string, unknown>
    if (member !== 'text') return JSON.stringify({ ...row, data: { ...data, [member]: null } })
    const list = Object.keys(data).find(name => Array.isArray(data[name]) && name !== 'dt')!
    return JSON.stringify({ ...row, data: { ...data, [list]: (data[list] as unknown[]).map((text, index) => (index === 0 ? null : text)) } })
  }
}

/** The row with `true` for its turn or its step (ROW-3 item 7), or for the first element of `dt` (item 9). */
function trueMember(member: 'turn' | 'step' | 'dt'): (row: Record<string, unknown>) => string {
  return row => {
    const data = row['data'] as Record<string, unknown>
    const value = member === 'dt' ? (data['dt'] as unknown[]).map((delta, index) => (index === 0 ? true : delta)) : true
    return JSON.stringify({ ...row, data: { ...data, [member]: value } })
  }
}

/**
 * The row cut to its first member, with no `dt` (ROW-3 item 9 asks a `dt` of length n - 1 even when n is
 * 1): its payload lists keep their first element.
 */
function firstMemberWithoutDt(row: Record<string, unknown>): string {
  const { dt: _dt, ...data } = row['data'] as Record<string, unknown>
  const cut = Object.fromEntries(Object.entries(data).map(([name, value]) => [name, Array.isArray(value) ? value.slice(0, 1) : value]))
  return JSON.stringify({ ...row, data: cut })
}

/** The edits, and the fewest members a row needs for each. */
const EDITS: readonly (readonly [(row: Record<string, unknown>, members: number) => string, number])[] = [
  [dtAsNegativeZero, 2], [lastSeqUnsafe, 2], [middleTimeUnsafe, 3], [nullMember('turn'), 2], [nullMember('step'), 2], [nullMember('text'), 2],
  [trueMember('turn'), 2], [trueMember('step'), 2], [trueMember('dt'), 2], [firstMemberWithoutDt, 2],
]

/**
 * The artifact's text with one packed row edited, or undefined when the draw keeps the text or the text
 * holds no row the edit applies to. The draws come before any look at the text, so a shrunk log draws
 * alike.
 */
export function withStoredRowOutOfRange(text: string, planSeed: number): string | undefined {
  const chooser = saltedChooser(planSeed, STORED_ROW_SALT)
  if (chooser.int(4) !== 0) return undefined
  const [edit, fewestMembers] = EDITS[chooser.int(EDITS.length)]!
  const pickAt = chooser.int(1000)
  const lines = text.split('\n')
  const rows = lines.flatMap((line, index) => {
    if (index === 0 || line === '') return []
    const record = JSON.parse(line) as unknown
    // A row the reference accepts (a log an operator broke can hold a record tagged as a row that is
    // none) with a dt to edit: a writer packs rows of three members or more.
    const read = readStorageRecord(record)
    const members = read.ok ? read.events.row?.members.length ?? 0 : 0
    return members >= fewestMembers ? [{ index, row: record as Record<string, unknown>, members }] : []
  })
  if (rows.length === 0) return undefined
  const chosen = rows[Math.floor((pickAt * rows.length) / 1000)]!
  lines[chosen.index] = edit(chosen.row, chosen.members)
  return lines.join('\n')
}

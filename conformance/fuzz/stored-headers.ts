// The requestHeader probe, one plan in four, over a log whose request/header snapshots hold a `system`
// or `tools` outside HDR-1: a null or array system, null or string tools, which no producer writes but
// a reader still meets and load accepts. HDR-3 drops such members from the header in force. Every
// snapshot is edited alike, the one in force among them; a fold that trips over an earlier one is left
// to the golden vectors (hdr-fold-non-string-system-non-array-tools). The edit is drawn from a seed of
// the run's plan, as the headerEquals pairs are (header-pairs.ts), so the fuzzer's other draws stay as
// they were; its disagreements are a class of their own (compare.ts), marked as the headerEquals pairs
// outside HDR-1 are.
import { isRecord } from '../../reference/lossless-json.ts'
import { pick } from '../generators/choices.ts'
import { saltedChooser } from '../generators/index.ts'

/** A member and the value it takes, each outside HDR-1. */
const OUTSIDE_HDR_1: readonly (readonly ['system' | 'tools', unknown])[] = [
  ['system', null],
  ['system', ['x']],
  ['tools', null],
  ['tools', 'abc'],
]

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const STORED_HEADER_SALT = 0x53484452

function storesHeader(event: unknown): event is { seq: number; data: { header: Record<string, unknown> } } {
  return isRecord(event) && event['type'] === 'request/header' && isRecord(event['data']) && isRecord(event['data']['header'])
}

/**
 * The log with one member of every request/header snapshot set outside HDR-1, or undefined when the
 * draw keeps it, or when no header is in force at `atSeq` (at the log's end when there is none), so
 * that the edit touches what the probe reads. The draws come before any look at the log, so a shrunk
 * log draws alike.
 */
export function withStoredHeadersOutsideHdr1(events: readonly unknown[], planSeed: number, atSeq?: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, STORED_HEADER_SALT)
  if (chooser.int(4) !== 0) return undefined
  const [member, value] = pick(chooser, OUTSIDE_HDR_1)
  if (!events.some(event => storesHeader(event) && (atSeq === undefined || event.seq <= atSeq))) return undefined
  return events.map(event => {
    if (!storesHeader(event)) return event
    return { ...event, data: { ...event.data, header: { ...event.data.header, [member]: structuredClone(value) } } }
  })
}

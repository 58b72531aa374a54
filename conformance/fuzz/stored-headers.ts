// The requestHeader probe, one plan in four, over a log whose request/header snapshots hold a `system`
// or `tools` outside HDR-1 (a null or array system, null or string tools, which HDR-3 drops from the
// header in force), or members at and past HDR-1's edges that HDR-3 keeps exactly as stored: a config
// with members holding 0, null and false, and a tool list with an extra member, a schema repeated as it
// is, a repeated name, a null element and names out of order. No producer writes these, but a reader still meets them and load
// accepts them. Every snapshot is edited alike, the one in force among them; a fold that trips over an
// earlier one is left to the golden vectors (hdr-fold-non-string-system-non-array-tools). The edit is
// drawn from a seed of the run's plan, as the headerEquals pairs are (header-pairs.ts), so the fuzzer's
// other draws stay as they were; its disagreements are a class of their own (compare.ts), marked as the
// headerEquals pairs outside HDR-1 are.
import { isRecord } from '../../reference/lossless-json.ts'
import { pick } from '../generators/choices.ts'
import { saltedChooser } from '../generators/index.ts'

type StoredHeader = Record<string, unknown>

/** A tool list HDR-3 keeps as stored, though typed schemas, a map by name, a dedup or a sort would change it. */
const TOOLS_AS_STORED: readonly unknown[] = [
  { name: 'write', description: 'Write a file.', parameters: {}, strict: true },
  { name: 'read', description: 'Read a file.', parameters: {} },
  { name: 'read', description: 'Read a file.', parameters: {} },
  { name: 'read', description: 'Read a file again.', parameters: {} },
  null,
]

/** Config members HDR-2 does not check, holding what an omitempty writer drops. */
const FALSY_CONFIG_MEMBERS = { temperature: 0, maxTokens: null, stream: false }

/** One edit of a stored header: a member set outside HDR-1, or at its edges. */
const EDITS: readonly ((header: StoredHeader) => StoredHeader)[] = [
  header => ({ ...header, system: null }),
  header => ({ ...header, system: ['x'] }),
  header => ({ ...header, tools: null }),
  header => ({ ...header, tools: 'abc' }),
  header => ({ ...header, tools: structuredClone(TOOLS_AS_STORED) }),
  header => ({ ...header, config: { ...(isRecord(header['config']) ? header['config'] : {}), ...FALSY_CONFIG_MEMBERS } }),
]

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const STORED_HEADER_SALT = 0x53484452

function storesHeader(event: unknown): event is { seq: number; data: { header: Record<string, unknown> } } {
  return isRecord(event) && event['type'] === 'request/header' && isRecord(event['data']) && isRecord(event['data']['header'])
}

/**
 * The log with one member of every request/header snapshot set outside HDR-1 or at its edges, or
 * undefined when the draw keeps it, or when no header is in force at `atSeq` (at the log's end when
 * there is none), so that the edit touches what the probe reads. The draws come before any look at the
 * log, so a shrunk log draws alike.
 */
export function withStoredHeadersOutsideHdr1(events: readonly unknown[], planSeed: number, atSeq?: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, STORED_HEADER_SALT)
  if (chooser.int(4) !== 0) return undefined
  const edit = pick(chooser, EDITS)
  if (!events.some(event => storesHeader(event) && (atSeq === undefined || event.seq <= atSeq))) return undefined
  return events.map(event => (storesHeader(event) ? { ...event, data: { ...event.data, header: edit(event.data.header) } } : event))
}

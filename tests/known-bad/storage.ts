// Known-bad JSONL decoders: packed chunk rows and the torn tail (raw encoding; zstd input is untouched).
import { accepted, isRecord, ref, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

const ROW_PAYLOAD: Record<string, string> = { 'text-chunks': 'texts', 'reasoning-chunks': 'texts', 'tool-call-chunks': 'args' }

/** The complete lines of a raw artifact (1-based numbers), or none for zstd input. */
function completeLines(input: Input): { number: number; text: string }[] {
  if (input['encoding'] === 'zstd') return []
  const text = typeof input['base64'] === 'string'
    ? Buffer.from(input['base64'], 'base64').toString('utf8')
    : typeof input['text'] === 'string' ? input['text'] : ''
  return text.split('\n').slice(0, -1).map((line, index) => ({ number: index + 1, text: line }))
}

/** Whether a parsed line is tagged as a packed chunk row. */
function isRowTagged(value: unknown): value is Record<string, unknown> & { type: string } {
  return isRecord(value) && typeof value['type'] === 'string' && value['type'] in ROW_PAYLOAD
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The seqs of every member of a packed row but its first. */
function droppedRowMembers(input: Input): Set<unknown> {
  const dropped = new Set<unknown>()
  for (const line of completeLines(input)) {
    const row = parsed(line.text)
    if (!isRowTagged(row)) continue
    const payload = isRecord(row['data']) ? row['data'][ROW_PAYLOAD[row['type']]!] : undefined
    const length = Array.isArray(payload) ? payload.length : 0
    for (let k = 1; k < length; k++) dropped.add((row['seq0'] as number) + k)
  }
  return dropped
}

/** A packed chunk row expands to its first member only, so the seqs after it gap. */
const firstRowMemberOnly: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  if (!result.ok) return result
  const value = result.value as { events: Record<string, unknown>[] }
  const dropped = droppedRowMembers(input)
  return accepted({ ...value, events: value.events.filter(event => !dropped.has(event['seq'])) })
}

/** Only the damaged line is skipped: every later line that parses to an object is kept. */
const tornTailKept: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  if (!result.ok) return result
  const value = result.value as { events: unknown[]; tornTail: { line: number; reason: string } | null }
  if (value.tornTail === null || value.tornTail.reason === 'unterminated') return result
  const damaged = value.tornTail.line
  const kept = completeLines(input).filter(line => line.number > damaged).map(line => parsed(line.text)).filter(isRecord)
  return accepted({ ...value, events: [...value.events, ...kept] })
}

/** The raw input's text, when it is UTF-8 (given as text, or as base64 of UTF-8 bytes). */
function rawText(input: Input): string | undefined {
  if (input['encoding'] === 'zstd') return undefined
  if (typeof input['base64'] !== 'string') return typeof input['text'] === 'string' ? input['text'] : undefined
  const bytes = Buffer.from(input['base64'], 'base64')
  const text = bytes.toString('utf8')
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined
}

/**
 * The artifact with each packed row's `-0` read as 0, as a JSON reader that keeps no sign on zero reads
 * it (Python's json, for one); other lines are kept as they are. Raw UTF-8 input only.
 */
function rowsWithoutNegativeZero(input: Input): Input {
  const text = rawText(input)
  if (text === undefined) return input
  const lines = text.split('\n').map(line => {
    const row = parsed(line)
    // JSON.stringify writes -0 as 0.
    return isRowTagged(row) ? JSON.stringify(row) : line
  })
  const read = lines.join('\n')
  return typeof input['base64'] === 'string' ? { ...input, base64: Buffer.from(read, 'utf8').toString('base64') } : { ...input, text: read }
}

/** A `-0` in a packed row reads as 0, so a row ROW-3 rejects expands (U23's departure). */
const rowNegativeZeroAsZero: SyncOperation = input => ref.decodeJsonl(rowsWithoutNegativeZero(input))

export const STORAGE_BUGS: KnownBad[] = [
  {
    name: 'row-first-member-only',
    bug: 'a packed chunk row is decoded to its first chunk only, so the seqs after it gap',
    caughtBy: ['row-expand-text-and-reasoning', 'row-expand-tool-call-name-presence'],
    patch: { decodeJsonl: firstRowMemberOnly },
  },
  {
    name: 'row-negative-zero-as-zero',
    bug: 'every -0 in a packed row reads as 0 (seq0, time0 and dt among them), so the row expands where ROW-3 rejects it',
    caughtBy: ['row-negative-zero'],
    patch: { decodeJsonl: rowNegativeZeroAsZero },
  },
  {
    name: 'torn-tail-kept',
    bug: 'the decoder skips only the damaged line and keeps the lines after it',
    caughtBy: ['jsonl-torn-bad-line-drops-the-rest', 'jsonl-torn-seq-gap-dropped'],
    patch: { decodeJsonl: tornTailKept },
  },
]

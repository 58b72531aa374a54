// Known-bad JSONL readers and writers from a third planted-bug review of chapter 19 (bugs planted in a
// port written from the spec alone; these passed every jsonl vector then): header members converted,
// defaulted or compared without case, row members and seqs read as JavaScript reads booleans and tag
// names, a torn tail judged by turn/ends inside arrays and by blank lines at the end, legacy upgrades
// run by the decoder, and a writer that orders digit names, drops non-objects and packs chunks ROW-5
// leaves verbatim. The readers decode each complete line as the bug reads its value (raw UTF-8 input
// only; zstd input is untouched), with the torn tail's offset counted in the artifact as stored; the
// writers edit the batches they write, or the lines written.
import { isRowTag, packableTag, packChunkRuns } from '../../reference/chunk-rows.ts'
import type { JsonlValue } from '../../reference/jsonl.ts'
import { hasOwn } from '../../reference/lossless-json.ts'
import { HEADER_MEMBERS } from '../../reference/storage-header.ts'
import type { OperationResult } from '../../conformance/expectations.ts'
import { accepted, dataOf, encodingAlone, isRecord, lineJson, rawText, ref, rejectedAtLine, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

type JsonObject = Record<string, unknown>

/** How the bug reads a complete line's value (line 1 is the header line): the value it reads in its place, or the same value. */
type ValueReading = (value: unknown, line: number) => unknown

/** The byte offset at which line `number` (1-based) of the artifact's lines starts. */
function offsetOfLine(lines: readonly string[], number: number): number {
  return lines.slice(0, number - 1).reduce((offset, line) => offset + Buffer.byteLength(line, 'utf8') + 1, 0)
}

/** The decoder's answer with its torn tail's offset recounted in the artifact's own lines. */
function tailCountedIn(lines: readonly string[], result: OperationResult): OperationResult {
  if (!result.ok) return result
  const value = result.value as JsonlValue
  if (value.tornTail === null) return result
  return accepted({ ...value, tornTail: { ...value.tornTail, offset: offsetOfLine(lines, value.tornTail.line) } })
}

/** decodeJsonl over each complete line as `reading` reads its value (a changed value written back as one JSON text, so lines keep their numbers). */
function decodingValuesAs(reading: ValueReading): SyncOperation {
  return input => {
    const text = rawText(input)
    if (text === undefined) return ref.decodeJsonl(input)
    const lines = text.split('\n')
    const read = lines.map((line, index) => {
      const parsed = index === lines.length - 1 ? undefined : lineJson(line)
      if (parsed === undefined) return line
      const value = reading(parsed, index + 1)
      return value === parsed ? line : JSON.stringify(value)
    })
    return tailCountedIn(lines, ref.decodeJsonl({ ...input, text: read.join('\n'), base64: undefined }))
  }
}

/** The header line's value, when the input is raw UTF-8 and its first line is an object. */
function headerLineOf(input: Input): JsonObject | undefined {
  const text = rawText(input)
  const parsed = text === undefined || !text.includes('\n') ? undefined : lineJson(text.slice(0, text.indexOf('\n')))
  return isRecord(parsed) ? parsed : undefined
}

/** decodeJsonl checking the header line as `standIn` gives it; an accepted header still holds the line's own members (JSONL-7). */
function headerCheckedAs(standIn: (line: JsonObject) => JsonObject): SyncOperation {
  const checking = decodingValuesAs((value, line) => (line === 1 && isRecord(value) ? standIn(value) : value))
  return input => {
    const result = checking(input)
    const line = headerLineOf(input)
    if (!result.ok || line === undefined) return result
    const header = Object.fromEntries(HEADER_MEMBERS.filter(name => hasOwn(line, name)).map(name => [name, line[name]]))
    return accepted({ ...(result.value as JsonlValue), header })
  }
}

/** decodeJsonl that also rejects, with `code` on line 1, a header line the reference lets pass and `refused` matches. */
function headerRefusing(code: string, refused: (line: JsonObject) => boolean): SyncOperation {
  return input => {
    const result = ref.decodeJsonl(input)
    const line = headerLineOf(input)
    const headerPassed = result.ok || (result.error as { line?: number }).line !== 1
    return headerPassed && line !== undefined && refused(line) ? rejectedAtLine(code, 1) : result
  }
}

/** decodeJsonl with each decoded event replaced by `edit` of it. */
function decodedEventsEdited(edit: (event: unknown) => unknown): SyncOperation {
  return input => {
    const result = ref.decodeJsonl(input)
    if (!result.ok) return result
    const value = result.value as JsonlValue
    return accepted({ ...value, events: value.events.map(edit) })
  }
}

/** A row's value with its data edited by `edit`; anything else as it is. */
function rowDataRead(edit: (data: JsonObject, tag: string) => JsonObject): ValueReading {
  return value => {
    if (!isRecord(value) || !isRowTag(value['type']) || !isRecord(value['data'])) return value
    const data = edit(value['data'], value['type'])
    return data === value['data'] ? value : { ...value, data }
  }
}

/** The members named, booleans among them read as Number reads them (true 1, false 0). */
function booleansAsNumbers(record: JsonObject, names: readonly string[]): JsonObject {
  const booleans = names.filter(name => typeof record[name] === 'boolean')
  return booleans.length === 0 ? record : { ...record, ...Object.fromEntries(booleans.map(name => [name, Number(record[name])])) }
}

// ---- JSONL-6: the header line ------------------------------------------------------------------

/** A delegationDepth of null read as an absent one, then defaulted to 0 (`line.delegationDepth ?? 0`). */
const nullDepthAsZero: ValueReading = (value, line) =>
  (line === 1 && isRecord(value) && value['delegationDepth'] === null ? { ...value, delegationDepth: 0 } : value)

/** createdAt checked as Number() converts it, so "5" and true pass (as 5 and 1). */
function createdAtConverted(line: JsonObject): JsonObject {
  const createdAt = line['createdAt']
  return typeof createdAt === 'string' || typeof createdAt === 'boolean' ? { ...line, createdAt: Number(createdAt) } : line
}

/** origin compared after lowering its case, so "Subagent" passes. */
function originCaseFolded(line: JsonObject): JsonObject {
  const origin = line['origin']
  return typeof origin === 'string' && origin.toLowerCase() === 'subagent' ? { ...line, origin: 'subagent' } : line
}

/** The retired header member names (JSONL-6 step 5), in lower case. */
const RETIRED_FOLDED = ['sandboxmode', 'approvalpolicy']

/** A member whose name is a retired one's in another case ("SandboxMode"), taken for the retired member. */
const retiredNameInOtherCase = (line: JsonObject): boolean =>
  Object.keys(line).some(name => RETIRED_FOLDED.includes(name.toLowerCase()))

// ---- ROW-3, JSONL-9: packed rows ---------------------------------------------------------------

/** A row's turn, step and index read with Number(), so booleans pass as 1 and 0. */
const rowNumbersConverted = rowDataRead(data => booleansAsNumbers(data, ['turn', 'step', 'index']))

/** A one-member text or reasoning row without dt read as one whose dt is empty (no gaps are needed). */
const singleMemberDtOptional = rowDataRead((data, tag) =>
  (tag !== 'tool-call-chunks' && !hasOwn(data, 'dt') && Array.isArray(data['texts']) && data['texts'].length === 1 ? { ...data, dt: [] } : data))

/** A record's type matched against the row tags after lowering its case, so "Text-Chunks" is read as a row. */
const rowTagCaseFolded: ValueReading = (value, line) => {
  if (line === 1 || !isRecord(value) || typeof value['type'] !== 'string') return value
  const folded = value['type'].toLowerCase()
  return folded !== value['type'] && isRowTag(folded) ? { ...value, type: folded } : value
}

// ---- JSONL-10, JSONL-11: the seq count and the torn tail ---------------------------------------

/** A record's boolean seq read as Number reads it, so false counts as seq 0. */
const seqBooleanConverted: ValueReading = (value, line) =>
  (line > 1 && isRecord(value) && !isRowTag(value['type']) ? booleansAsNumbers(value, ['seq']) : value)

/** decodeJsonl that, after the first defect, also takes a later array line holding a turn/end object as proof the defect was committed. */
const turnEndInsideArray: SyncOperation = input => {
  const result = ref.decodeJsonl(input)
  const text = rawText(input)
  if (!result.ok || text === undefined) return result
  const tail = (result.value as JsonlValue).tornTail
  if (tail === null || tail.reason === 'unterminated') return result
  const later = text.split('\n').slice(tail.line, -1)
  const proves = later.some(line => {
    const parsed = lineJson(line)
    return Array.isArray(parsed) && parsed.some(item => isRecord(item) && item['type'] === 'turn/end')
  })
  return proves ? rejectedAtLine(tail.reason, tail.line) : result
}

/** decodeJsonl reading the artifact with empty lines at its very end dropped, as if "\n\n" were one final newline. */
const trailingEmptyLinesIgnored: SyncOperation = input => {
  const text = rawText(input)
  return text === undefined ? ref.decodeJsonl(input) : ref.decodeJsonl({ ...input, text: text.replace(/\n\n+$/, '\n'), base64: undefined })
}

// ---- JSONL-4: what the decoder leaves to load ---------------------------------------------------

/** A turn/start whose data has a trigger returned without it, as LEGACY-5 upgrades it in load. */
function triggerDropped(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'turn/start' || !hasOwn(dataOf(event), 'trigger')) return event
  const { trigger: _trigger, ...data } = dataOf(event)
  return { ...event, data }
}

// ---- JSONL-4, JSONL-8: the writer --------------------------------------------------------------

/** Member names as a port orders them that takes every name made of digits for an array index: those first, by number, then the others. */
function digitNamesFirst(names: readonly string[]): string[] {
  const digits = names.filter(name => /^[0-9]+$/.test(name)).sort((a, b) => Number(a) - Number(b))
  return [...digits, ...names.filter(name => !/^[0-9]+$/.test(name))]
}

/** A value as JSON text, each object's members in the order `order` gives its names. */
function writtenInOrder(value: unknown, order: (names: readonly string[]) => string[]): string {
  if (Array.isArray(value)) return `[${value.map(item => writtenInOrder(item, order)).join(',')}]`
  if (!isRecord(value)) return JSON.stringify(value)
  return `{${order(Object.keys(value)).map(name => `${JSON.stringify(name)}:${writtenInOrder(value[name], order)}`).join(',')}}`
}

/** encodeJsonl with each record line written again with member names in the order `order` gives. */
function recordsWrittenInOrder(order: (names: readonly string[]) => string[]): SyncOperation {
  return input => {
    const result = ref.encodeJsonl(input)
    if (!result.ok) return result
    const [header, ...records] = (result.value as { text: string }).text.split('\n')
    const lines = records.map(line => {
      const parsed = lineJson(line)
      return parsed === undefined ? line : writtenInOrder(parsed, order)
    })
    return accepted({ text: [header, ...lines].join('\n') })
  }
}

/** encodeJsonl leaving out the events `dropped` picks. */
function encodingWithout(dropped: (event: unknown) => boolean): SyncOperation {
  return input => {
    const batches = input['batches']
    return ref.encodeJsonl(Array.isArray(batches) ? { ...input, batches: batches.map(batch => (Array.isArray(batch) ? batch.filter(event => !dropped(event)) : batch)) } : input)
  }
}

/** encodeJsonl packing each batch as if each event were `seen(event)`; an event left verbatim is written as given. */
function packingAsIf(seen: (event: unknown) => unknown): SyncOperation {
  return input => {
    const batches = input['batches']
    if (!Array.isArray(batches)) return ref.encodeJsonl(input)
    const packed = batches.map(batch => {
      if (!Array.isArray(batch)) return batch
      const seenEvents = batch.map(seen)
      const given = new Map(seenEvents.map((event, index) => [event, batch[index]] as const))
      // The rows and verbatim events are not packable again, so the reference writes them as they are.
      return packChunkRuns(seenEvents).map(record => (given.has(record) ? given.get(record) : record))
    })
    return ref.encodeJsonl({ ...input, batches: packed })
  }
}

/** An assistant/chunk whose ignorable is false seen without it, as a test of `event.ignorable` for truth sees it. */
function falseIgnorableUnseen(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'assistant/chunk' || event['ignorable'] !== false) return event
  const { ignorable: _ignorable, ...rest } = event
  return rest
}

/** A packable chunk whose turn or step is not an integer, which a writer asking integers will not pack. */
function hasFractionalTurnOrStep(event: unknown): boolean {
  const data = dataOf(event)
  return packableTag(event) !== undefined && !(Number.isInteger(data['turn']) && Number.isInteger(data['step']))
}

export const JSONL_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'header-depth-null-as-zero',
    bug: "the header line's delegationDepth null is taken for an absent one and decoded as 0",
    caughtBy: ['jsonl-header-delegation-depth-domain'],
    patch: { decodeJsonl: decodingValuesAs(nullDepthAsZero) },
  },
  {
    name: 'header-created-at-converted',
    bug: "the header line's createdAt is checked after Number(), so \"5\" and true pass",
    caughtBy: ['jsonl-header-created-at-not-converted'],
    patch: { decodeJsonl: headerCheckedAs(createdAtConverted) },
  },
  {
    name: 'header-origin-case-folded',
    bug: "the header line's origin is compared without case, so \"Subagent\" passes",
    caughtBy: ['jsonl-header-origin-exact-and-empty-preset'],
    patch: { decodeJsonl: headerCheckedAs(originCaseFolded) },
  },
  {
    name: 'header-retired-names-case-folded',
    bug: 'retired header member names are compared without case, so a member SandboxMode is refused as retired',
    caughtBy: ['jsonl-header-retired-names-exact'],
    patch: { decodeJsonl: headerRefusing('JSONL_HEADER_RETIRED_FIELD', retiredNameInOtherCase) },
  },
  {
    name: 'row-turn-step-index-bool-as-number',
    bug: "a row's boolean turn, step or index is read as 1 or 0 instead of making the row invalid",
    caughtBy: ['row-kind-boolean-turn-step-index'],
    patch: { decodeJsonl: decodingValuesAs(rowNumbersConverted) },
  },
  {
    name: 'row-single-member-dt-optional',
    bug: 'a one-member text or reasoning row may leave out dt',
    caughtBy: ['row-kind-dt-boolean-or-missing'],
    patch: { decodeJsonl: decodingValuesAs(singleMemberDtOptional) },
  },
  {
    name: 'row-tag-case-folded',
    bug: 'record types are matched against the row tags without case, so a "Text-Chunks" event is read as an invalid row',
    caughtBy: ['row-tag-exact-spelling'],
    patch: { decodeJsonl: decodingValuesAs(rowTagCaseFolded) },
  },
  {
    name: 'seq-boolean-as-number',
    bug: "a record's boolean seq is read as 1 or 0 in the seq count instead of being a seq gap",
    caughtBy: ['jsonl-seq-boolean-is-a-gap'],
    patch: { decodeJsonl: decodingValuesAs(seqBooleanConverted) },
  },
  {
    name: 'torn-turn-end-inside-array',
    bug: 'after a defect, an array line holding a turn/end object counts as a turn/end and makes the defect fatal',
    caughtBy: ['jsonl-torn-turn-end-must-be-a-top-level-event'],
    patch: { decodeJsonl: turnEndInsideArray },
  },
  {
    name: 'trailing-empty-lines-ignored',
    bug: 'empty lines at the very end of the artifact are ignored like a final newline instead of being a torn tail',
    caughtBy: ['jsonl-final-empty-line-is-a-defect'],
    patch: { decodeJsonl: trailingEmptyLinesIgnored },
  },
  {
    name: 'decode-trigger-upgraded',
    bug: "decodeJsonl drops a turn/start's trigger, running load's LEGACY-5 upgrade on the events it returns",
    caughtBy: ['jsonl-legacy-shapes-decoded-as-stored'],
    patch: { decodeJsonl: decodedEventsEdited(triggerDropped) },
  },
  {
    name: 'enc-digit-names-as-indices',
    bug: 'the writer puts every member name made of digits ("01", "4294967295") first, as if each were an array index',
    caughtBy: ['enc-array-index-names-first'],
    patch: { encodeJsonl: recordsWrittenInOrder(digitNamesFirst) },
  },
  {
    name: 'enc-non-objects-dropped',
    bug: 'the writer leaves out records that are not objects (null, strings, numbers)',
    caughtBy: ['enc-non-object-records-written'],
    patch: { encodeJsonl: encodingWithout(event => typeof event !== 'object' || event === null) },
  },
  {
    name: 'pack-false-ignorable-packed',
    bug: 'a chunk whose ignorable is false is packed as if it had no ignorable, which the row then loses',
    caughtBy: ['enc-pack-needs-exactly-four-members'],
    patch: { encodeJsonl: packingAsIf(falseIgnorableUnseen) },
  },
  {
    name: 'pack-integer-turn-and-step',
    bug: 'only chunks whose turn and step are integers are packed, so a run at turn 1.5 is written verbatim',
    caughtBy: ['enc-pack-non-integer-turn-and-index'],
    patch: { encodeJsonl: encodingAlone(hasFractionalTurnOrStep) },
  },
]

// The JSON Schemas are never more lenient than the reader. schemas/README.md says a schema gives what a
// v0 writer writes and a reader checks less; so a record its schema accepts must pass every check a
// reader makes of that record on its own, except the few rules the README lists as not expressible in
// JSON Schema. Otherwise a writer in another language that validates its output against the schemas
// could write logs the reader refuses. The records judged: every event, header and packed row of the
// vectors' inputs, and every single edit of each (a member replaced, removed or added); events of every
// type, each event also retyped with a storage tag (ENV-3).
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { decodeTagged } from '../conformance/tagged-values.ts'
import { loadVectorCases, projectRoot } from '../conformance/vector-cases.ts'
import { ROW_TAGS, readStorageRecord } from '../reference/chunk-rows.ts'
import { envelopeFault } from '../reference/envelope.ts'
import { decodeHeaderLine, headerLine } from '../reference/jsonl.ts'
import { legacyRejectionFault, upgradeLegacyShapes } from '../reference/legacy.ts'
import { isRecord, isSafeInteger, snapshotJson, type JsonRecord } from '../reference/lossless-json.ts'
import { shapeFault } from '../reference/processing.ts'
import { provenanceFault } from '../reference/provenance.ts'
import { headerFieldsFault, headerIdentityFault } from '../reference/storage-header.ts'
import { surfaceOpOf } from '../reference/surface.ts'
import { unknownTypeFault } from '../reference/unknown-types.ts'
import type { SessionEvent } from '../reference/envelope.ts'

const schemaDir = join(projectRoot, 'schemas')
const ID_BASE = 'https://dsh-session-conformance.dev/schemas/v0/'

type Schemas = Map<string, Record<string, unknown>>

function readSchemas(): Schemas {
  const names = readdirSync(schemaDir).filter((name) => name.endsWith('.schema.json'))
  return new Map(names.map((name) => [name, JSON.parse(readFileSync(join(schemaDir, name), 'utf8')) as Record<string, unknown>]))
}

/** The validator of schemas/<name>.schema.json at `fragment` ('' for the root). */
type ValidatorOf = (name: string, fragment?: string) => ValidateFunction

function validatorsOf(schemas: Schemas): ValidatorOf {
  const ajv = new Ajv2020({ strict: true })
  for (const schema of schemas.values()) ajv.addSchema(schema)
  return (name, fragment = '') => ajv.getSchema(`${ID_BASE}${name}.schema.json${fragment}`) as ValidateFunction
}

/**
 * SessionEvent's branch for each known type (`#/$defs/TurnStartEvent` for turn/start, ...). A record of
 * a known type meets SessionEvent exactly when it meets its type's branch: every other branch fixes
 * another type, and UnknownTypeEvent excludes the known ones. Asking the branch alone spares Ajv
 * trying the 48 branches in turn, which took most of this test's time.
 */
function eventBranches(schemas: Schemas): Map<string, string> {
  const defs = (schemas.get('event.schema.json') as { $defs: Record<string, { anyOf?: { $ref: string }[]; properties?: { type?: { const?: string } } }> }).$defs
  const branches = (defs['KnownSessionEvent']?.anyOf ?? []).map(({ $ref }) => $ref)
  return new Map(branches.map((ref) => [defs[ref.replace('#/$defs/', '')]?.properties?.type?.const as string, ref]))
}

// ---- the records of the vectors' inputs --------------------------------------------------------

interface Inputs {
  events: unknown[]
  headers: unknown[]
  headerLines: string[]
  rows: unknown[]
}

/**
 * A step's input as JSON gives it back. An input holding a value JSON cannot carry (a cycle, a
 * bigint, a revoked proxy) is left out; -0 and NaN become what JSON makes of them.
 */
function asJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value)
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

function parsedLines(text: string): unknown[] {
  return text.split('\n').slice(1).flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown]
    } catch {
      return []
    }
  })
}

function vectorInputs(): Inputs {
  const inputs: Inputs = { events: [], headers: [], headerLines: [], rows: [] }
  for (const vectorCase of loadVectorCases()) {
    for (const step of vectorCase.steps) {
      const input = asJson(decodeTagged(step.input)) as Record<string, unknown> | undefined
      if (input === undefined) continue
      const batches = Array.isArray(input['batches']) ? input['batches'].flat() : []
      for (const list of [input['events'], batches, [input['candidate']]]) if (Array.isArray(list)) inputs.events.push(...list)
      inputs.headers.push(input['header'])
      if (typeof input['text'] === 'string') {
        inputs.headerLines.push(input['text'].split('\n')[0] as string)
        inputs.rows.push(...parsedLines(input['text']).filter((record) => isRecord(record) && (ROW_TAGS as readonly unknown[]).includes(record['type'])))
      }
    }
  }
  return inputs
}

// ---- single edits --------------------------------------------------------------------------------

const REPLACEMENTS: readonly unknown[] = [null, 0, -1, 1.5, 2 ** 53, '', 'x', {}, []]
const MAX_DEPTH = 5

type Path = readonly (string | number)[]

function edited(root: unknown, path: Path, edit: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  edit(parent, path.at(-1) as string | number)
  return copy
}

/** Every value one edit away from `root`: a member replaced by each of REPLACEMENTS, removed, or added. */
function* singleEdits(root: unknown, value: unknown = root, path: Path = []): Generator<unknown> {
  if (path.length > MAX_DEPTH || typeof value !== 'object' || value === null) return
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value)
  for (const key of keys) {
    const at = [...path, key]
    for (const replacement of REPLACEMENTS) yield edited(root, at, (parent, last) => { parent[last] = replacement })
    if (!Array.isArray(value)) yield edited(root, at, (parent, last) => { delete parent[last] })
    yield* singleEdits(root, (value as Record<string | number, unknown>)[key], at)
  }
  if (!Array.isArray(value)) yield edited(root, [...path, 'extraMember'], (parent, last) => { parent[last] = 1 })
}

/** The members whose string value selects a rule; any other string only matters as empty or not. */
const SELECTORS: ReadonlySet<string> = new Set(['type', 'kind', 'role', 'op', 'reason', 'form', 'status'])

/**
 * What a record looks like to the reader's checks of it: its members, the selecting strings, and the
 * class of every other value. Records of one skeleton have the same single edits up to their values.
 */
function skeletonOf(value: unknown, key = ''): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? Math.sign(value) : 0.5
  if (typeof value === 'string') return SELECTORS.has(key) || value === '' ? value : 's'
  if (Array.isArray(value)) return value.map((member) => skeletonOf(member))
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, skeletonOf(member, name)]))
  return value
}

function distinctSkeletons(records: readonly unknown[]): unknown[] {
  const bySkeleton = new Map(records.map((record) => [JSON.stringify(skeletonOf(record)), record]))
  return [...bySkeleton.values()]
}

function* withSingleEdits(records: readonly unknown[]): Generator<unknown> {
  const seen = new Set<string>()
  for (const record of distinctSkeletons(records)) {
    for (const candidate of [record, ...singleEdits(record)]) {
      const key = JSON.stringify(candidate)
      if (key === undefined || seen.has(key)) continue
      seen.add(key)
      yield candidate
    }
  }
}

// ---- what the reader checks of one record on its own ---------------------------------------------

/**
 * The faults PROC-2 can find in one event record without the others: lossless JSON, the legacy
 * rejections, the payload shapes, the envelope, the surface op and the provenance list. Undefined for
 * a legacy shape (the reader upgrades it; its schema is LegacyEvent, not SessionEvent).
 */
function eventRecordFault(record: unknown): string | undefined | 'upgraded' {
  const snapshot = snapshotJson(record)
  const found = snapshot.fault ?? legacyRejectionFault(record)
  if (found !== undefined) return found.code
  if (!isRecord(record)) return 'ENV_NOT_OBJECT'
  const upgraded = upgradeLegacyShapes(record, { sessionId: 's', messageIdBySeq: new Map() })
  if (!upgraded.ok) return upgraded.fault.code
  if (upgraded.record !== record) return 'upgraded'
  const shaped = shapeFault(record) ?? envelopeFault(record)
  if (shaped !== undefined) return shaped.code
  const op = surfaceOpOf(record as unknown as SessionEvent)
  if (!op.ok) return op.fault.code
  return provenanceFault(record as unknown as SessionEvent, [])?.code
}

/** META-4..8 of one header, asked for under its own id (an id mismatch needs the session asked for). */
function headerFault(header: unknown): string | undefined {
  return (headerIdentityFault(header, undefined) ?? headerFieldsFault(snapshotJson(header)))?.code
}

/** JSONL-6 and JSONL-7 of a first line, then the header checks of what it decodes to. */
function headerLineFault(line: string): string | undefined {
  const decoded = decodeHeaderLine(new TextEncoder().encode(line))
  return decoded.ok ? headerFault(decoded.value) : decoded.error.code
}

function rowFault(row: unknown): string | undefined {
  const read = readStorageRecord(row)
  return read.ok ? undefined : read.fault.code
}

// ---- the rules a schema cannot state ---------------------------------------------------------------

/** schemas/README.md's list, as the codes the reader gives them; other codes are never excused. */
const INEXPRESSIBLE_EVENT_CODES: ReadonlySet<string> = new Set([
  'PROVENANCE_NOT_EARLIER', // a cited seq earlier than the citing event's own
  'MESSAGE_CALL_ID_MISMATCH', // a tool result's toolCallId equal to its source.callId
])

/** Which vocabulary a reader uses (UNK-3), the README's last item: a type none of them knows, not marked ignorable. */
const UNKNOWN_TYPE_CODES: ReadonlySet<string> = new Set(['FORMAT_UNKNOWN_EVENT_TYPE'])

/** Negative zero, which JSON Schema cannot tell from zero (a row's line may hold one: `"dt":[-0]`). */
function holdsNegativeZero(value: unknown): boolean {
  if (Object.is(value, -0)) return true
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsNegativeZero)
}

/** ROW-3's `dt` length and safe running times, judged from the row itself (the code is the row's code). */
function breaksInexpressibleRowRule(row: unknown): boolean {
  if (!isRecord(row) || !isRecord(row['data'])) return false
  const data = row['data']
  const members = data[row['type'] === 'tool-call-chunks' ? 'args' : 'texts']
  const gaps = data['dt']
  if (!Array.isArray(members) || !Array.isArray(gaps) || !gaps.every(isSafeInteger)) return false
  if (gaps.length !== members.length - 1) return true
  if (!isSafeInteger(row['seq0']) || !isSafeInteger(row['seq0'] + members.length - 1)) return true
  let time = row['time0']
  for (const gap of gaps as number[]) {
    time = (time as number) + gap
    if (!isSafeInteger(time)) return true
  }
  return false
}

// ---- the comparison --------------------------------------------------------------------------------

interface Pairing {
  what: string
  schema: string
  /** The fragment of `schema` that judges a record, when it depends on the record. */
  fragmentFor?: (record: unknown) => string
  records: () => Iterable<unknown>
  readerFault: (record: unknown) => string | undefined
  excused: (record: unknown, code: string) => boolean
}

const knownTypes: ReadonlySet<string> = new Set(Object.values(
  (JSON.parse(readFileSync(join(schemaDir, 'vocabulary.json'), 'utf8')) as { versions: Record<string, { knownEventTypes: string[] }> }).versions,
).flatMap((version) => version.knownEventTypes))

const isOfKnownType = (record: unknown): boolean => isRecord(record) && knownTypes.has(record['type'] as string)

function pairings(inputs: Inputs, branches: ReadonlyMap<string, string>): Pairing[] {
  let events: unknown[] | undefined
  const eventEdits = (): unknown[] => (events ??= [...withSingleEdits(inputs.events)])
  return [
    {
      what: 'event records of known types',
      schema: 'event',
      fragmentFor: (record) => branches.get((record as JsonRecord)['type'] as string) as string,
      records: () => eventEdits().filter(isOfKnownType),
      readerFault: (record) => {
        const found = eventRecordFault(record)
        return found === 'upgraded' ? undefined : found
      },
      excused: (_, code) => INEXPRESSIBLE_EVENT_CODES.has(code),
    },
    {
      // Unknown and empty types, storage tags (ENV-3), retired types, a type that is no string or
      // missing, a record that is no object. Every known type's branch fixes its type, so SessionEvent
      // judges such a record exactly as its UnknownTypeEvent branch does.
      what: 'event records of other types',
      schema: 'event',
      fragmentFor: () => '#/$defs/UnknownTypeEvent',
      // Each event again with a storage tag for its type, so that ENV-3 is judged whatever the vectors hold.
      records: () => [
        ...eventEdits().filter((record) => !isOfKnownType(record)),
        ...distinctSkeletons(inputs.events).filter(isRecord).flatMap((record) => ROW_TAGS.map((type) => ({ ...record, type }))),
      ],
      // The vocabulary check comes last here, although load runs it before replay (UNK-5), so that the
      // refusal it alone may give hides no fault of the record's other checks.
      readerFault: (record) => {
        const found = eventRecordFault(record)
        if (found === 'upgraded') return undefined
        return found ?? unknownTypeFault(record, knownTypes)?.code
      },
      excused: (_, code) => UNKNOWN_TYPE_CODES.has(code),
    },
    { what: 'session headers', schema: 'storage-header', records: () => withSingleEdits(inputs.headers), readerFault: headerFault, excused: () => false },
    {
      what: 'JSONL header lines',
      schema: 'jsonl-header',
      // The first lines of the vectors' artifacts, and the lines a writer makes of their headers (JSONL-6).
      records: () => withSingleEdits([...inputs.headerLines.flatMap((line) => parsedLines(`\n${line}`)), ...inputs.headers.filter(isRecord).map(headerLine)]),
      readerFault: (record) => headerLineFault(JSON.stringify(record)),
      excused: () => false,
    },
    { what: 'packed chunk rows', schema: 'chunk-row', records: () => withSingleEdits(inputs.rows), readerFault: rowFault, excused: breaksInexpressibleRowRule },
  ]
}

interface Comparison {
  judged: number
  schemaValid: number
  bothRefuse: number
  /** Records the schema accepts and the reader refuses, with the reader's code. */
  lenient: string[]
}

function compare(pairing: Pairing, validatorOf: ValidatorOf): Comparison {
  const comparison: Comparison = { judged: 0, schemaValid: 0, bothRefuse: 0, lenient: [] }
  for (const record of pairing.records()) {
    comparison.judged += 1
    const valid = validatorOf(pairing.schema, pairing.fragmentFor?.(record))(record) as boolean
    const code = pairing.readerFault(record)
    if (valid) comparison.schemaValid += 1
    if (!valid && code !== undefined) comparison.bothRefuse += 1
    if (valid && code !== undefined && !pairing.excused(record, code) && !holdsNegativeZero(record)) comparison.lenient.push(`${code}: ${JSON.stringify(record)}`)
  }
  return comparison
}

const inputs = vectorInputs()
const schemas = readSchemas()
const branches = eventBranches(schemas)

describe('every record a schema accepts passes the reader\'s checks of that record', () => {
  it('has one SessionEvent branch for every known type', () => {
    expect([...branches.keys()].sort()).toEqual([...knownTypes].sort())
  })

  it.each(pairings(inputs, branches).map((pairing) => [pairing.what, pairing] as const))('%s', (_, pairing) => {
    const comparison = compare(pairing, validatorsOf(schemas))
    expect(comparison.lenient.slice(0, 5), `${comparison.lenient.length} records the schema accepts and the reader refuses`).toEqual([])
    // Not vacuous: both sides accept some records and refuse others.
    expect(comparison.schemaValid).toBeGreaterThan(0)
    expect(comparison.bothRefuse).toBeGreaterThan(0)
  })

  it('finds a schema that is loosened: an envelope that allows any member', () => {
    const loosened: Schemas = new Map([...schemas].map(([name, schema]) => [name, structuredClone(schema)]))
    const envelope = (loosened.get('envelope.schema.json') as { $defs: Record<string, Record<string, unknown>> }).$defs['EventEnvelope'] as Record<string, unknown>
    delete envelope['additionalProperties']
    // The first hundred events of the vectors are enough to meet an added member.
    const events = pairings({ ...inputs, events: inputs.events.slice(0, 100) }, branches)[0] as Pairing
    expect(compare(events, validatorsOf(loosened)).lenient.some((found) => found.startsWith('ENV_UNKNOWN_KEY'))).toBe(true)
  })
})

// Known-bad adapters from a planted-bug review of store and artifactPath (bugs planted in a second
// implementation of chapters 19 and 20; these thirteen passed every vector of the storage and jsonl
// profiles then): how a port derives the artifact's path, and what its store refuses and reads back.
import { posix } from 'node:path'
import { continuesRun, MIN_RUN, packableTag, type Packable } from '../../reference/chunk-rows.ts'
import { accepted, dataOf, isRecord, ref, rejected, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
type Stored = { header: EventRecord; events: unknown[] }

/** artifactPath with the session segment of an accepted path changed by `change`. */
function segmentChanged(change: (segment: string) => string): SyncOperation {
  return input => {
    const result = ref.artifactPath(input)
    if (!result.ok) return result
    const [project, segment, file] = (result.value as { path: string }).path.split('/') as [string, string, string]
    return accepted({ path: `${project}/${change(segment)}/${file}` })
  }
}

/** Whether a cwd was given is asked of the input's keys, so one of undefined is a present cwd that is no string. */
const cwdByKey: SyncOperation = input =>
  'cwd' in input && input['cwd'] === undefined ? rejected('HEADER_ID_MISMATCH') : ref.artifactPath(input)

/** The path is raw only when no encoding is given, asked of the input's keys: an encoding of undefined gives the zstd path. */
const encodingUndefinedZstd: SyncOperation = input =>
  ref.artifactPath('encoding' in input && input['encoding'] === undefined ? { ...input, encoding: 'zstd' } : input)

/** The session id is NFC-normalized before it is escaped, so e and a combining acute is é's directory. */
const idNormalized: SyncOperation = input =>
  ref.artifactPath(typeof input['sessionId'] === 'string' ? { ...input, sessionId: input['sessionId'].normalize('NFC') } : input)

/** A unit is kept when /^[a-z0-9._-]$/iu matches it, and Unicode case folding matches ſ (U+017F) and K (U+212A). */
const unicodeCaseFold = segmentChanged(segment => segment.replaceAll('~017F', '\u017F').replaceAll('~212A', '\u212A'))

/** The session segment is cut to a file system's 255-unit name limit. */
const segmentCut = segmentChanged(segment => segment.slice(0, 255))

/** @ + = and , are taken for safe file-name characters and kept unescaped. */
const extraPunctuationKept = segmentChanged(segment =>
  segment.replace(/~(0040|002B|003D|002C)/g, (_, unit: string) => String.fromCharCode(parseInt(unit, 16))))

/** A refusal's seq is the record's when Number.isSafeInteger passes it and it is >= 0, so a seq of -0 is reported. */
const negativeZeroSeqUsable: SyncOperation = input => {
  const result = ref.store(input)
  if (result.ok || result.error.seq === undefined) return result
  const batches = Array.isArray(input['batches']) ? input['batches'] : []
  const record: unknown = batches.flatMap(batch => (Array.isArray(batch) ? Array.from(batch) : []))[result.error.seq]
  return isRecord(record) && Object.is(record['seq'], -0) ? { ...result, error: { ...result.error, seq: -0 } } : result
}

/** A missing header is made up before storing, so one of undefined is stored as an empty header. */
const headerMadeUp: SyncOperation = input =>
  ref.store(input['header'] === undefined ? { ...input, header: { version: 0, id: '', createdAt: 0 } } : input)

/** store as the reference answers it, an accepted read-back changed by `change`. */
function readBackChanged(change: (stored: Stored) => Stored): SyncOperation {
  return input => {
    const result = ref.store(input)
    return result.ok ? accepted(change(result.value as Stored)) : result
  }
}

/** The header's cwd is stored as a normalized path, its trailing slash dropped. */
const cwdNormalized = readBackChanged(stored => {
  const cwd = stored.header['cwd']
  return typeof cwd === 'string' ? { ...stored, header: { ...stored.header, cwd: posix.normalize(cwd).replace(/(.)\/$/, '$1') } } : stored
})

/** The value with every object member holding null left out, at any depth. */
function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers)
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null).map(([name, member]) => [name, withoutNullMembers(member)]))
}

/** An event's data is written by an omitempty encoder, which leaves out the members holding null inside it. */
const nullMembersDropped = readBackChanged(stored => ({
  ...stored,
  events: stored.events.map(event => (isRecord(event) && isRecord(event['data']) ? { ...event, data: withoutNullMembers(event['data']) } : event)),
}))

/** ROW-5, ROW-6: whether the reference packer writes `next` into the row that `previous` ends. */
function packsAfter(previous: unknown, next: unknown): boolean {
  const [previousTag, nextTag] = [packableTag(previous), packableTag(next)]
  return previousTag !== undefined && nextTag !== undefined &&
    continuesRun({ tag: previousTag, event: previous } as Packable, { tag: nextTag, event: next } as Packable)
}

/** The events cut into runs, each event joining the run before it when `continues` says so. */
function runsOf(events: readonly unknown[], continues: (previous: unknown, next: unknown) => boolean): unknown[][] {
  const runs: unknown[][] = []
  for (const event of events) {
    const run = runs.at(-1)
    if (run !== undefined && continues(run.at(-1), event)) run.push(event)
    else runs.push([event])
  }
  return runs
}

/** store read back through a packer whose runs `continues` finds: each run it packs (three or more) as `readRun` gives it back. */
function packedBy(continues: (previous: unknown, next: unknown) => boolean, readRun: (run: unknown[]) => unknown[]): SyncOperation {
  return readBackChanged(stored => ({
    ...stored,
    events: runsOf(stored.events, continues).flatMap(run => (run.length >= MIN_RUN ? readRun(run) : run)),
  }))
}

function chunkOf(event: unknown): EventRecord {
  const chunk = dataOf(event)['chunk']
  return isRecord(chunk) ? chunk : {}
}

function withChunk(event: unknown, chunk: EventRecord): EventRecord {
  return { ...(event as EventRecord), data: { ...dataOf(event), chunk } }
}

/** A packer whose run test disregards the chunk member `name`: each chunk of a packed run comes back with the first's. */
function ignoringMember(name: string): SyncOperation {
  // The chunk event with its `name` member as `first`'s chunk has it (none when that has none).
  const like = (event: unknown, first: unknown): unknown => {
    if (packableTag(event) === undefined) return event
    const { [name]: _own, ...chunk } = chunkOf(event)
    return withChunk(event, Object.hasOwn(chunkOf(first), name) ? { ...chunk, [name]: chunkOf(first)[name] } : chunk)
  }
  return packedBy((previous, next) => packsAfter(previous, like(next, previous)), run => run.map(event => like(event, run[0])))
}

/** The packer compares tool-call deltas by id and index, not name, so a run takes its first chunk's name. */
const packIgnoresName = ignoringMember('name')

/** The packer lets a run go on across an index change, so a run takes its first chunk's index. */
const packIgnoresIndex = ignoringMember('index')

const ROW_CHUNK_MEMBERS = ['type', 'index', 'text', 'id', 'name', 'argumentsDelta']

/** The chunk event as the packer reads it into its typed row fields: the chunk's members ROW-5 names, no others. */
function rowMembersOnly(event: unknown): unknown {
  if (!isRecord(event) || event['type'] !== 'assistant/chunk') return event
  return withChunk(event, Object.fromEntries(Object.entries(chunkOf(event)).filter(([name]) => ROW_CHUNK_MEMBERS.includes(name))))
}

/** The packer reads a chunk into its row fields, so members ROW-5 does not name are dropped, not written verbatim. */
const packDropsExtraMembers = packedBy((previous, next) => packsAfter(rowMembersOnly(previous), rowMembersOnly(next)), run => run.map(rowMembersOnly))

export const STORAGE_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'path-cwd-by-key',
    bug: 'a cwd member whose value is undefined is taken as a present cwd that is no string',
    caughtBy: ['jsonl-path-undefined-members-are-absent'],
    patch: { artifactPath: cwdByKey },
  },
  {
    name: 'path-encoding-undefined-zstd',
    bug: 'an encoding member whose value is undefined gives the zstd path',
    caughtBy: ['jsonl-path-undefined-members-are-absent'],
    patch: { artifactPath: encodingUndefinedZstd },
  },
  {
    name: 'path-id-normalized',
    bug: 'the session id is NFC-normalized before it is escaped',
    caughtBy: ['jsonl-path-id-neither-normalized-nor-folded'],
    patch: { artifactPath: idNormalized },
  },
  {
    name: 'path-unicode-case-fold',
    bug: 'a unit is kept when /^[a-z0-9._-]$/iu matches it, so U+017F and U+212A are kept as themselves',
    caughtBy: ['jsonl-path-id-neither-normalized-nor-folded'],
    patch: { artifactPath: unicodeCaseFold },
  },
  {
    name: 'path-segment-cut',
    bug: 'the session segment is cut to 255 code units',
    caughtBy: ['jsonl-path-session-segment-not-cut'],
    patch: { artifactPath: segmentCut },
  },
  {
    name: 'path-extra-punctuation-kept',
    bug: '@ + = and , are kept unescaped in the session segment',
    caughtBy: ['jsonl-path-id-neither-normalized-nor-folded'],
    patch: { artifactPath: extraPunctuationKept },
  },
  {
    name: 'store-negative-zero-seq-usable',
    bug: "a refused record's seq of -0 passes a safe-integer test and is reported as its seq",
    caughtBy: ['store-refuse-negative-zero-seq-at-its-index'],
    patch: { store: negativeZeroSeqUsable },
  },
  {
    name: 'store-header-made-up',
    bug: 'a header of undefined is replaced by a made-up empty header before storing',
    caughtBy: ['store-refuse-header-undefined'],
    patch: { store: headerMadeUp },
  },
  {
    name: 'store-cwd-normalized',
    bug: "the header's cwd comes back as a normalized path, its trailing slash dropped",
    caughtBy: ['store-null-members-and-cwd-as-written'],
    patch: { store: cwdNormalized },
  },
  {
    name: 'store-null-members-dropped',
    bug: "object members holding null are dropped from the events' data read back, at any depth",
    caughtBy: ['store-null-members-and-cwd-as-written'],
    patch: { store: nullMembersDropped },
  },
  {
    name: 'store-pack-ignores-name',
    bug: 'tool-call deltas continue a packed run whatever their name, and read back with the first one\'s',
    caughtBy: ['store-chunks-that-do-not-continue-a-run'],
    patch: { store: packIgnoresName },
  },
  {
    name: 'store-pack-ignores-index',
    bug: 'deltas continue a packed run across an index change, and read back with the first one\'s index',
    caughtBy: ['store-chunks-that-do-not-continue-a-run'],
    patch: { store: packIgnoresIndex },
  },
  {
    name: 'store-pack-drops-extra-members',
    bug: 'chunk members ROW-5 does not name are dropped by the packer instead of cutting the run',
    caughtBy: ['store-chunks-that-do-not-continue-a-run'],
    patch: { store: packDropsExtraMembers },
  },
]

// The jsonl profile's operations (spec/19-jsonl.md), each run through the real JSONL backend: the
// adapter writes the artifact where the backend locates it, has the backend read it back (its
// `loadStored`, the read every load and repair starts from) or write it (`appendBatch`), and reports
// what the backend answers. What the backend does not say, the adapter reads off the bytes at the place
// the backend named, with the tests the spec and the backend share (JSON.parse, then upstream's own
// row decoder); it decides nothing the backend did not:
// - the backend's torn marker holds an offset alone: the torn tail's `line` is the line that starts
//   there, and its `reason` what that line is (no line feed: unterminated; not JSON; a row the
//   decoder refuses; otherwise a seq gap);
// - the backend says "unparsable committed event" both of a line that is not JSON and of a row its
//   decoder refuses: the code is the one of the two that the line it names is;
// - the backend reads an artifact only at the path its header derives: the adapter stores it there, or,
//   for a header that derives none, under a stand-in id, since the backend reads every line before it
//   checks the path. Such an artifact it accepts, it then refuses for its path: that answer alone is
//   `unsupported`. The adapter's own faults (writing the file, a refusal for a path it chose) are
//   thrown, so that the runner reports an error, which no baseline or known class excuses.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Adapter, AdapterResult } from '../../adapter.ts'
import { isRecord } from '../../../reference/lossless-json.ts'
import { NODE_HAS_ZSTD, zstdZlib, type Backends, type Compression, type StoredPrefix } from './backend.ts'
import { backendRejection, IDENTITY_REFUSAL, lineKind, NO_PATH_RULE, thrownText } from './rejections.ts'

type Input = Record<string, unknown>

/** The stand-in id the adapter stores an artifact under when its header line names no id the backend can locate. */
const NO_ID = 'header-names-no-id'

function compressionOf(input: Input): Compression {
  return input['encoding'] === 'zstd' ? 'zstd' : 'none'
}

function bytesOf(input: Input): Buffer {
  return typeof input['text'] === 'string' ? Buffer.from(input['text'], 'utf8') : Buffer.from(String(input['base64'] ?? ''), 'base64')
}

/**
 * The decoded text the header line is read from: the artifact itself, or as much of its zstd frames as
 * node:zlib's one-shot decoder gives (on Node 22.20, the first frame: the header line, JSONL-14; flushed,
 * so that a torn frame gives what it holds). Text that does not decode names no header.
 */
function decodedText(bytes: Buffer, compression: Compression): Buffer {
  if (compression === 'none') return bytes
  try {
    return zstdZlib.zstdDecompressSync(bytes, { finishFlush: zstdZlib.constants.ZSTD_e_flush })
  } catch {
    return Buffer.alloc(0)
  }
}

/** The id and cwd of the header line, where the backend looks for the artifact; none without a string id. */
function headerIdentity(text: Buffer): { id: string; cwd?: unknown } | undefined {
  const end = text.indexOf(10)
  if (end === -1) return undefined
  let header: unknown
  try {
    header = JSON.parse(text.toString('utf8', 0, end))
  } catch {
    return undefined
  }
  if (!isRecord(header) || typeof header['id'] !== 'string') return undefined
  return header['cwd'] === undefined ? { id: header['id'] } : { id: header['id'], cwd: header['cwd'] }
}

/** Writes the artifact where the backend will look; a name too long for the file system is the layout's limit. */
function stage(file: string, bytes: Buffer): AdapterResult | undefined {
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, bytes)
    return undefined
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENAMETOOLONG') throw error
    return unsupported(`the backend keeps a session in a folder named after its id, and this one is longer than the file system allows (${thrownText(error)})`)
  }
}

function linesBefore(text: Buffer, offset: number): number {
  let count = 0
  for (let at = text.indexOf(10); at !== -1 && at < offset; at = text.indexOf(10, at + 1)) count += 1
  return count
}

/**
 * The torn tail JSONL-4 asks for, from the backend's truncation offset. In the raw encoding the first
 * line not kept starts at that offset. A torn zstd frame is unterminated, and its first line follows the
 * text of the complete frames (JSONL-15), which the backend's readRaw gives.
 */
async function tornTailOf(bytes: Buffer, prefix: StoredPrefix, completeText: () => Promise<Buffer | undefined>, decodeRow: (value: unknown) => unknown): Promise<unknown> {
  if (prefix.tornMarker === undefined) return null
  const offset = prefix.tornMarker.truncateTo
  const complete = await completeText()
  if (complete !== undefined) return { line: linesBefore(complete, complete.length) + 1, offset, reason: 'unterminated' }
  return { line: linesBefore(bytes, offset) + 1, offset, reason: lineKind(bytes, offset, decodeRow) }
}

function unsupported(why: string): AdapterResult {
  return { ok: false, unsupported: why }
}

/** Runs each call after the one before: every call of an encoding uses the same root. */
function serially(): <T>(run: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve()
  return run => {
    const next = last.then(run, run)
    last = next.catch(() => undefined)
    return next
  }
}

export function jsonlOperations(backends: Backends, decodeRow: (value: unknown) => unknown): Adapter['operations'] {
  const inTurn = serially()

  /** The artifact's path under the root, or why the backend derives none (it throws). */
  function located(compression: Compression, identity: { id: unknown; cwd?: unknown }): string | Error {
    try {
      return backends.backend(compression).locate(identity).path
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error))
    }
  }

  async function decodeJsonl(input: Input): Promise<AdapterResult> {
    const compression = compressionOf(input)
    if (compression === 'zstd' && !NODE_HAS_ZSTD) return unsupported(`the backend decodes zstd frames with node:zlib, which has no zstd on Node ${process.version}`)
    const bytes = bytesOf(input)
    const header = headerIdentity(decodedText(bytes, compression))
    const own = header === undefined ? undefined : located(compression, header)
    // A header naming no string id fails the backend's header checks; one that derives no path, its identity check.
    const stored = typeof own === 'string' ? { id: (header as { id: string }).id, file: own } : { id: NO_ID, file: located(compression, { id: NO_ID }) as string }
    return inTurn(async () => {
      const backend = backends.backend(compression)
      /** The zstd artifact's complete frames as the backend decodes them; none in the raw encoding. */
      const completeText = async (): Promise<Buffer | undefined> => {
        if (compression === 'none') return undefined
        const raw = await backend.readRaw(stored.id)
        return raw === undefined ? undefined : Buffer.from(raw.content, 'utf8')
      }
      try {
        const unstorable = stage(stored.file, bytes)
        if (unstorable !== undefined) return unstorable
        let prefix: StoredPrefix | undefined
        try {
          prefix = await backend.loadStored(stored.id)
        } catch (error) {
          if (!IDENTITY_REFUSAL.test(thrownText(error))) return backendRejection(error, compression === 'none' ? bytes : await completeText().catch(() => undefined), decodeRow)
          if (own instanceof Error) return unsupported(`the backend reads this artifact, then refuses it at its path, since its header derives none (${thrownText(own)})`)
          throw error
        }
        if (prefix === undefined) throw new Error(`the backend found no artifact at ${stored.file}, where it locates it`)
        return { ok: true, value: { header: prefix.meta, events: prefix.events, tornTail: await tornTailOf(bytes, prefix, completeText, decodeRow) } }
      } finally {
        backends.clear(compression)
      }
    })
  }

  async function encodeJsonl(input: Input): Promise<AdapterResult> {
    const header = input['header'] as Record<string, unknown>
    // The coordinator, the backend's one caller, never hands it an empty batch (appendCore returns).
    const batches = (input['batches'] as unknown[][]).filter(batch => batch.length > 0)
    if (batches.length === 0) return unsupported('the backend writes an artifact only with its first event: a log with no event is never stored')
    const file = located('none', header as { id: unknown; cwd?: unknown })
    if (file instanceof Error) return unsupported(`the backend derives no artifact path from this header (${thrownText(file)})`)
    return inTurn(async () => {
      try {
        for (const [index, batch] of batches.entries()) await backends.backend('none').appendBatch(header, batch, index > 0)
        return { ok: true, value: { text: readFileSync(file, 'utf8') } }
      } catch (error) {
        return backendRejection(error, undefined, decodeRow)
      } finally {
        backends.clear('none')
      }
    })
  }

  function artifactPath(input: Input): AdapterResult {
    const compression = compressionOf(input)
    const identity = input['cwd'] === undefined ? { id: input['sessionId'] } : { id: input['sessionId'], cwd: input['cwd'] }
    const file = located(compression, identity)
    if (file instanceof Error) return backendRejection(file, undefined, decodeRow, [NO_PATH_RULE])
    return { ok: true, value: { path: path.relative(backends.root(compression), file).split(path.sep).join('/') } }
  }

  return { decodeJsonl, encodeJsonl, artifactPath }
}

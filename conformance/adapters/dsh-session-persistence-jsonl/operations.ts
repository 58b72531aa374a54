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
//   decoder refuses: the code is the one of the two that the line it names is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Adapter, AdapterResult } from '../../adapter.ts'
import { isRecord } from '../../../reference/lossless-json.ts'
import { NODE_HAS_ZSTD, zstdZlib, type Backends, type Compression, type StoredPrefix } from './backend.ts'
import { backendRejection, lineKind, thrownText } from './rejections.ts'

type Input = Record<string, unknown>

/** The id the adapter stores an artifact under when its header line names none the backend could use. */
const NO_ID = 'header-names-no-id'

function compressionOf(input: Input): Compression {
  return input['encoding'] === 'zstd' ? 'zstd' : 'none'
}

function bytesOf(input: Input): Buffer {
  return typeof input['text'] === 'string' ? Buffer.from(input['text'], 'utf8') : Buffer.from(String(input['base64'] ?? ''), 'base64')
}

/**
 * The decoded text the header line is read from: the artifact itself, or its first zstd frame, which
 * holds the header line (JSONL-14; node:zlib's one-shot decoder stops after one frame, and flushing
 * lets a torn frame give what it holds). Text that does not decode names no header.
 */
function decodedText(bytes: Buffer, compression: Compression): Buffer {
  if (compression === 'none') return bytes
  try {
    return zstdZlib.zstdDecompressSync(bytes, { finishFlush: zstdZlib.constants.ZSTD_e_flush })
  } catch {
    return Buffer.alloc(0)
  }
}

/**
 * Where the backend looks for the artifact: the id and cwd of its header line. A header line that names
 * no string id is stored under NO_ID: the backend rejects such a line before it compares identities.
 */
function storedIdentity(text: Buffer): { id: string; cwd?: unknown } {
  const end = text.indexOf(10)
  if (end === -1) return { id: NO_ID }
  let header: unknown
  try {
    header = JSON.parse(text.toString('utf8', 0, end))
  } catch {
    return { id: NO_ID }
  }
  if (!isRecord(header) || typeof header['id'] !== 'string') return { id: NO_ID }
  return header['cwd'] === undefined ? { id: header['id'] } : { id: header['id'], cwd: header['cwd'] }
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
    const identity = storedIdentity(decodedText(bytes, compression))
    const file = located(compression, identity)
    if (file instanceof Error) return unsupported(`the backend derives no artifact path from this header line (${thrownText(file)}), so it can neither store nor open such a session`)
    return inTurn(async () => {
      const backend = backends.backend(compression)
      /** The zstd artifact's complete frames as the backend decodes them; none in the raw encoding. */
      const completeText = async (): Promise<Buffer | undefined> => {
        if (compression === 'none') return undefined
        const raw = await backend.readRaw(identity.id)
        return raw === undefined ? undefined : Buffer.from(raw.content, 'utf8')
      }
      try {
        mkdirSync(path.dirname(file), { recursive: true })
        writeFileSync(file, bytes)
        const prefix = await backend.loadStored(identity.id)
        if (prefix === undefined) throw new Error(`the backend found no artifact at ${file}, where it locates it`)
        return { ok: true, value: { header: prefix.meta, events: prefix.events, tornTail: await tornTailOf(bytes, prefix, completeText, decodeRow) } }
      } catch (error) {
        return backendRejection(error, compression === 'none' ? bytes : await completeText().catch(() => undefined), decodeRow)
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
    if (file instanceof Error) return backendRejection(file, undefined, decodeRow)
    return { ok: true, value: { path: path.relative(backends.root(compression), file).split(path.sep).join('/') } }
  }

  return { decodeJsonl, encodeJsonl, artifactPath }
}

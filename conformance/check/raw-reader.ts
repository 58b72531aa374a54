// The raw encoding (JSONL-6, JSONL-11, JSONL-12): the file is read in chunks and split into lines; the
// first line is the header line, every later complete line a record line, and the bytes after the last
// line feed the unterminated tail, which is never decoded (and so never held).
import { isUtf8 } from 'node:buffer'
import { readSync } from 'node:fs'
import type { TornTail } from '../../reference/jsonl.ts'
import type { ArtifactCheck, ArtifactOutcome } from './artifact.ts'
import { LineSplitter } from './lines.ts'

const CHUNK_BYTES = 1 << 20
const LINE_FEED = 0x0a

/** Fills `into` with the next bytes of the log; how many it wrote, 0 at the end. */
export type ChunkReader = (into: Buffer) => number

/** The bytes of the file at `fd` from where it stands (its start, once opened). */
export function fileChunks(fd: number): ChunkReader {
  // Sequential reads (no position): the scan goes front to back, and a pipe (/dev/stdin) can be read too.
  return into => readSync(fd, into, 0, into.length, null)
}

/** The bytes of the regular file at `fd` from its start, read at positions: the descriptor's own place stays. */
export function positionedChunks(fd: number): ChunkReader {
  let at = 0
  return into => {
    const read = readSync(fd, into, 0, into.length, at)
    at += read
    return read
  }
}

/** The bytes of a log already in memory. */
export function memoryChunks(bytes: Uint8Array): ChunkReader {
  let at = 0
  return into => {
    const length = Math.min(into.length, bytes.length - at)
    into.set(bytes.subarray(at, at + length))
    at += length
    return length
  }
}

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd])

/**
 * For a header refused as raw JSONL: a hint when its bytes are zstd's, read as raw. `where` says what a
 * zstd log may be read from: check reads one at positions, so only from a regular file; audit reads a
 * log whole, so also from a named pipe whose name ends in .zstd.
 */
function zstdMagicHint(bytes: Uint8Array, where = 'from a regular file, not a pipe'): string {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(ZSTD_MAGIC.length, bytes.length))
  return start.equals(ZSTD_MAGIC) ? ` (its bytes start with the zstd magic number: a log is read as zstd when its name ends in .zstd or .zst, ${where})` : ''
}

const UTF16_BYTE_ORDER_MARKS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])]

/**
 * For a header refused as raw JSONL, from the artifact's first bytes: that it is empty, or its first
 * line is; that it is UTF-16 (as a Windows PowerShell redirection writes text), which reads as no JSON
 * at all; or that it is zstd (`where`: as zstdMagicHint).
 */
export function rawHeaderHint(bytes: Uint8Array, where?: string): string {
  if (bytes.length === 0 || bytes[0] === LINE_FEED) return ': it is empty'
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(2, bytes.length))
  if (UTF16_BYTE_ORDER_MARKS.some(mark => start.equals(mark))) return ' (its bytes start with a UTF-16 byte order mark: the log is UTF-16, not UTF-8; convert it, for example with iconv -f UTF-16 -t UTF-8)'
  return zstdMagicHint(bytes, where)
}

/** A refused header of a log read as raw: what its first bytes say of why (rawHeaderHint). */
function hintAtHeaderBytes(artifact: ArtifactCheck, start: Buffer): void {
  const refused = artifact.decodeError
  if (refused?.code !== 'JSONL_HEADER_INVALID') return
  artifact.decodeError = { ...refused, message: `${refused.message}${rawHeaderHint(start)}` }
}

/**
 * Reads the log's bytes into `artifact`. `ends`: the bytes end (a regular file, or bytes in memory),
 * unlike a pipe's or a device's, which may never.
 */
export function checkRawArtifact(readChunk: ChunkReader, artifact: ArtifactCheck, ends: boolean): ArtifactOutcome {
  let headerSeen = false
  const splitter: LineSplitter = new LineSplitter({
    line(bytes, number, start, end) {
      if (number === 1) {
        headerSeen = true
        artifact.headerLine(bytes, end)
      } else artifact.recordLine(bytes, number, start, end, false)
      if (artifact.finished) splitter.stop()
    },
    oversized(number, _start, _end, mayHoldTurnEnd) {
      if (artifact.passesOver(mayHoldTurnEnd)) return
      artifact.oversized(number)
      splitter.stop()
    },
  }, artifact.settings.maxLineBytes)
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  // The first bytes, which say whether the log is zstd read as raw (a pipe may hand them over one by one).
  let start = Buffer.alloc(0)
  let at = 0
  while (!splitter.isStopped) {
    const read = readChunk(chunk)
    if (read === 0) break
    const bytes = chunk.subarray(0, read)
    if (start.length < 4) start = Buffer.concat([start, bytes.subarray(0, 4 - start.length)])
    // A well-formed chunk holds only whole sequences, so lines made of well-formed chunks are too.
    if (!isUtf8(bytes)) artifact.wellFormedFrom = Number.POSITIVE_INFINITY
    else if (artifact.wellFormedFrom === Number.POSITIVE_INFINITY) artifact.wellFormedFrom = at
    at += read
    splitter.push(bytes)
    // From a pipe or a device, an unterminated first line past the limit stops the read (the file can
    // only end as CHECK_LINE_TOO_LONG or with no header line), so that one sending no line feed ends.
    if (!ends && !headerSeen && !splitter.isStopped && splitter.tailLength > artifact.settings.maxLineBytes) {
      artifact.oversized(1)
      splitter.stop()
    }
  }
  if (!headerSeen) artifact.rejectStorage('JSONL_HEADER_INVALID', 'the artifact has no complete header line', 1)
  hintAtHeaderBytes(artifact, start)
  const scan = artifact.scan?.state
  const unterminated: TornTail | null = scan !== undefined && splitter.tailLength > 0
    ? { line: splitter.number, offset: scan.committed, reason: 'unterminated' }
    : null
  // The last line is the one the splitter would number next, less one when every line ended.
  const lastLine = splitter.tailLength > 0 ? splitter.number : splitter.number - 1
  return artifact.outcome(scan?.defect?.tail ?? unterminated, { bytes: at, lastLine }, scan?.defect?.why)
}

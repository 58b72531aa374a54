// Helpers of the check tests: the batch reference pipeline as the oracle, zstd artifacts built here
// (raw-block frames need no compressor; compressed ones use the zstd tool when it is installed), and
// running `check` on files in a temporary folder.
import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { reference } from '../../reference/index.ts'
import { Xxh64 } from '../../reference/xxh64.ts'
import { checkFile, recallIds, type Encoding, type FileReport, type Outcome } from '../../conformance/check/check-file.ts'
import { regularFileState } from '../../conformance/check/file-change.ts'
import type { RecallIds } from '../../conformance/check/message-ids.ts'
import { RequirementIndex } from '../../conformance/check/requirements.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { rawBlocks } from '../../conformance/fuzz/zstd-frames.ts'

/** decodeJsonl -> load -> relations on the whole artifact, as tests/corpus.test.ts runs it. */
export function pipelineOutcome(bytes: Uint8Array, encoding: Encoding, vocabulary = 'v0-pinned'): Outcome {
  const decoded = reference.decodeJsonl({ base64: Buffer.from(bytes).toString('base64'), encoding })
  if (!decoded.ok) {
    const { code, line } = decoded.error
    return { verdict: 'rejected', operation: 'decodeJsonl', code, ...(line === undefined ? {} : { line }) }
  }
  const { header, events, tornTail } = decoded.value
  const log = { header, events, sessionId: header['id'], vocabulary }
  const loaded = reference.load(log)
  if (!loaded.ok) {
    const { code, seq } = loaded.error
    return { verdict: 'rejected', operation: 'load', code, ...(seq === undefined ? {} : { seq }) }
  }
  const related = reference.relations(log)
  const relations = related.ok ? related.value.violations.map(({ code, seq }) => ({ code, seq })) : []
  return { verdict: 'accepted', events: events.length, tornTail, relations }
}

/** XXH64 of `data` with seed 0, in one call. */
export function xxh64(data: Uint8Array): bigint {
  const hash = new Xxh64()
  hash.update(data)
  return hash.digest()
}

export const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd])
/** A frame header's window descriptor byte for a 128 KiB window. */
export const WINDOW_128_KIB = (17 - 10) << 3

/** A zstd block header: `last`, `type` (0 raw, 1 run-length) and `size` (its bytes, or a run's repeats). */
export function blockHeader(last: boolean, type: number, size: number): Buffer {
  const value = (last ? 1 : 0) | (type << 1) | (size << 3)
  return Buffer.from([value & 0xff, (value >>> 8) & 0xff, value >>> 16])
}

/** A frame's content checksum: the low 4 bytes of the content's XXH64, little-endian. */
export function frameChecksum(content: Uint8Array): Buffer {
  const sum = Buffer.alloc(4)
  sum.writeUInt32LE(Number(xxh64(content) & 0xffffffffn))
  return sum
}

/**
 * One zstd frame of raw blocks: descriptor with the checksum flag and a 128 KiB window (or the window
 * descriptor byte given), no content size (or a 4-byte one, if asked).
 */
export function rawFrame(content: Uint8Array, options: { checksum?: boolean; windowByte?: number; statesSize?: boolean } = {}): Buffer {
  const checksum = options.checksum ?? true
  // Frame_Header_Descriptor: the content size flag 2 (4 bytes) in its top bits, the checksum flag 0x04.
  const descriptor = (options.statesSize === true ? 0x80 : 0x00) | (checksum ? 0x04 : 0x00)
  const size = Buffer.alloc(options.statesSize === true ? 4 : 0)
  if (options.statesSize === true) size.writeUInt32LE(content.length)
  const parts: Buffer[] = [ZSTD_MAGIC, Buffer.from([descriptor, options.windowByte ?? WINDOW_128_KIB]), size, rawBlocks(content)]
  if (checksum) parts.push(frameChecksum(content))
  return Buffer.concat(parts)
}

export const hasZstdTool = spawnSync('zstd', ['--version']).status === 0

/** One frame compressed by the zstd tool, with its checksum. */
export function compressedFrame(content: Uint8Array): Buffer {
  const result = spawnSync('zstd', ['-q', '-c', '-3', '--check'], { input: content, maxBuffer: 1 << 28 })
  if (result.status !== 0) throw new Error(`zstd failed: ${String(result.stderr)}`)
  return result.stdout
}

/** A zstd artifact: the header line's frame, then one frame per batch of lines. */
export function zstdArtifact(lines: readonly string[], batchSizes: readonly number[], frame: (content: Uint8Array) => Buffer = rawFrame): Buffer {
  const frames = [frame(Buffer.from(`${lines[0]}\n`))]
  let at = 1
  for (let index = 0; at < lines.length; index++) {
    const size = Math.max(1, batchSizes[index % batchSizes.length] ?? 1)
    frames.push(frame(Buffer.from(`${lines.slice(at, at + size).join('\n')}\n`)))
    at += size
  }
  return Buffer.concat(frames)
}

export interface TempFolder {
  dir: string
  write(name: string, bytes: string | Uint8Array): string
  remove(): void
}

export function tempFolder(): TempFolder {
  const dir = mkdtempSync(path.join(tmpdir(), 'dsh-check-'))
  return {
    dir,
    write(name, bytes) {
      const file = path.join(dir, name)
      writeFileSync(file, bytes)
      return file
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

const requirements = new RequirementIndex()

/** check's second read of `file` (recallIds), through a descriptor opened for it, and the closing of that descriptor. */
export function openedRecall(file: string, encoding: Encoding = 'raw'): { recall: RecallIds; close: () => void } {
  const fd = openSync(file, 'r')
  const recall = recallIds(fd, encoding, regularFileState(fd)!, { vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES })
  return { recall, close: () => closeSync(fd) }
}

export function check(file: string, options: { vocabulary?: string; maxLineBytes?: number; writer?: boolean } = {}): FileReport {
  return checkFile(file, { vocabulary: options.vocabulary ?? 'v0-pinned', maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, writer: options.writer ?? false }, requirements)
}

// Helpers of the differential test of the reference's RFC 8878 decoder against the zstd tool
// (tests/reference/zstd-tool-differential.test.ts): compress with the tool under given flags, then
// decode the frames the ways that share the reference's block decoder: a frame loop that mirrors
// reference/zstd.ts's (which exports only the whole-artifact decoder), check's frame layer (readFrame +
// inflateFrame, which trims history), and, for session logs, reference.decodeJsonl. Frame and block
// headers are read here too, for the census of what the tool wrote and for the torn-frame oracle.
import { spawnSync } from 'node:child_process'
import { reference } from '../../reference/index.ts'
import { Xxh64 } from '../../reference/xxh64.ts'
import { decodeBlock, newFrameState } from '../../reference/zstd-decompress.ts'
import { ZstdError } from '../../reference/zstd-entropy.ts'
import { memoryByteSource } from '../../conformance/check/byte-source.ts'
import { readFrame } from '../../conformance/check/zstd-frames.ts'
import { inflateFrame } from '../../conformance/check/zstd-inflate.ts'

const ZSTD_MAGIC = 0xfd2fb528

/** The zstd tool's output for `input` under `flags` (stdin to stdout, so no content size unless `--stream-size` gives it). */
export function zstdCompress(input: Uint8Array, flags: readonly string[]): Buffer {
  const result = spawnSync('zstd', ['-q', '-c', ...flags], { input, maxBuffer: 1 << 28 })
  if (result.status !== 0) throw new Error(`zstd ${flags.join(' ')} failed: ${String(result.stderr)}`)
  return result.stdout
}

/** `zstd -dc`: the tool's own reading of some bytes. */
export function zstdDecompress(bytes: Uint8Array): { ok: boolean; content: Buffer; stderr: string } {
  const result = spawnSync('zstd', ['-q', '-d', '-c', '--memory=2048MB'], { input: bytes, maxBuffer: 1 << 28 })
  return { ok: result.status === 0, content: result.stdout, stderr: String(result.stderr) }
}

export type FramesDecoded = { ok: true; content: Buffer; frames: FrameFacts[] } | { ok: false; why: string }

export interface FrameFacts {
  start: number
  windowSize: number
  singleSegment: boolean
  contentSizeBytes: number
  checksum: boolean
  blocks: number
  blockTypes: number[]
}

function littleEndian(bytes: Uint8Array, at: number, count: number): number {
  let value = 0
  for (let index = count - 1; index >= 0; index--) value = value * 256 + (bytes[at + index] as number)
  return value
}

/** A frame header (RFC 8878, 3.1.1.1), read here rather than by the code under test. */
export interface FrameHeader {
  descriptor: number
  singleSegment: boolean
  checksum: boolean
  /** The window descriptor byte; 0 in a single-segment frame, which has none. */
  windowByte: number
  dictionaryId: number
  contentSizeBytes: number
  contentSize: number | undefined
  /** Window_Size: from the window descriptor, or a single-segment frame's content size. */
  windowSize: number
  /** Where the header ends and the first block starts. */
  end: number
}

/** The header of the frame at `start` (its magic number not checked), or undefined when it is cut. */
export function frameHeaderAt(bytes: Uint8Array, start: number): FrameHeader | undefined {
  if (start + 5 > bytes.length) return undefined
  const descriptor = bytes[start + 4] as number
  const singleSegment = (descriptor & 0x20) !== 0
  const sizeFlag = descriptor >> 6
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number
  const contentSizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][sizeFlag] as number
  const windowByte = singleSegment ? 0 : bytes[start + 5] as number
  const dictionaryAt = start + 5 + (singleSegment ? 0 : 1)
  const end = dictionaryAt + dictionaryBytes + contentSizeBytes
  if (end > bytes.length) return undefined
  const contentSize = contentSizeBytes === 0 ? undefined : littleEndian(bytes, end - contentSizeBytes, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0)
  const base = 2 ** (10 + (windowByte >> 3))
  const windowSize = singleSegment ? contentSize as number : base + (base / 8) * (windowByte & 7)
  return { descriptor, singleSegment, checksum: (descriptor & 4) !== 0, windowByte, dictionaryId: littleEndian(bytes, dictionaryAt, dictionaryBytes), contentSizeBytes, contentSize, windowSize, end }
}

/** A block header (RFC 8878, 3.1.1.2): where it starts, and its payload (one byte for an RLE block). */
interface BlockHeader {
  at: number
  last: boolean
  type: number
  size: number
  payload: number
  length: number
}

/** The block headers from `from` to the frame's last block, or to the first header the bytes cut. */
function* blockHeaders(bytes: Uint8Array, from: number): Generator<BlockHeader> {
  for (let at = from, last = false; !last && at + 3 <= bytes.length;) {
    const header = littleEndian(bytes, at, 3)
    const type = (header >> 1) & 3
    last = (header & 1) === 1
    const block = { at, last, type, size: header >> 3, payload: at + 3, length: type === 1 ? 1 : header >> 3 }
    yield block
    at = block.payload + block.length
  }
}

/**
 * Every frame of `bytes`, decoded by the reference's block decoder in a loop that mirrors
 * reference/zstd.ts (scanFrames + decompressFrame): window from the header, content size and checksum
 * verified, no window limit, no skippable frames (JSONL-13), no dictionary.
 */
export function referenceFrames(bytes: Uint8Array): FramesDecoded {
  const parts: Uint8Array[] = []
  const frames: FrameFacts[] = []
  for (let at = 0; at < bytes.length;) {
    const start = at
    const header = frameHeaderAt(bytes, start)
    if (header === undefined) return { ok: false, why: `torn frame header at ${start}` }
    if (littleEndian(bytes, start, 4) !== ZSTD_MAGIC) return { ok: false, why: `no zstd magic at ${start}` }
    if ((header.descriptor & 0x18) !== 0) return { ok: false, why: 'reserved bits' }
    if (header.dictionaryId !== 0) return { ok: false, why: 'dictionary' }
    const state = newFrameState(header.windowSize)
    const hash = new Xxh64()
    const facts: FrameFacts = { start, windowSize: header.windowSize, singleSegment: header.singleSegment, contentSizeBytes: header.contentSizeBytes, checksum: header.checksum, blocks: 0, blockTypes: [] }
    frames.push(facts)
    let last = false
    try {
      for (const block of blockHeaders(bytes, header.end)) {
        if (block.type === 3) return { ok: false, why: 'reserved block type' }
        if (block.payload + block.length > bytes.length) return { ok: false, why: `torn block at ${block.at}` }
        const before = state.output.length
        decodeBlock(block.type, block.size, bytes.subarray(block.payload, block.payload + block.length), state)
        hash.update(state.output.since(before))
        facts.blocks += 1
        facts.blockTypes.push(block.type)
        at = block.payload + block.length
        last = block.last
      }
    } catch (error) {
      if (error instanceof ZstdError) return { ok: false, why: `frame at ${start}: ${error.message}` }
      throw error
    }
    if (!last) return { ok: false, why: `torn block header in the frame at ${start}` }
    const content = state.output.since(0)
    if (header.contentSize !== undefined && header.contentSize !== content.length) return { ok: false, why: `content size ${content.length}, header says ${header.contentSize}` }
    if (header.checksum) {
      if (at + 4 > bytes.length) return { ok: false, why: 'torn checksum' }
      if (hash.frameChecksum() !== littleEndian(bytes, at, 4)) return { ok: false, why: `checksum mismatch in frame at ${start}` }
      at += 4
    }
    parts.push(content)
  }
  return { ok: true, content: Buffer.concat(parts), frames }
}

/** Every frame of `bytes` through check's frame layer (readFrame, inflateFrame: streamed, history trimmed). */
export function checkFrames(bytes: Uint8Array): FramesDecoded {
  const source = memoryByteSource(bytes)
  const parts: Uint8Array[] = []
  for (let at = 0, index = 0; at < bytes.length; index++) {
    const read = readFrame(source, at, index)
    if (!read.ok) return { ok: false, why: read.why }
    if (read.frame.torn) return { ok: false, why: `torn frame at ${at}` }
    const why = inflateFrame(source, read.frame, chunk => parts.push(Uint8Array.prototype.slice.call(chunk)))
    if (why !== undefined) return { ok: false, why: `frame at ${at}: ${why}` }
    at = read.frame.end
  }
  return { ok: true, content: Buffer.concat(parts), frames: [] }
}

/** A zstd artifact as the layout stores it: the header line's frame, then one frame per batch, each compressed by the tool under `flags`. */
export function toolArtifact(headerLine: string, batches: readonly string[][], flags: readonly string[]): { artifact: Buffer; frameStarts: number[] } {
  // A flag `--stream-size=SIZE` gives each frame its own content size (so the tool writes it in the header).
  const compress = (content: Buffer): Buffer => zstdCompress(content, flags.map(flag => flag.replace('=SIZE', `=${content.length}`)))
  const frames = [compress(Buffer.from(`${headerLine}\n`)), ...batches.map(batch => compress(Buffer.from(batch.map(line => `${line}\n`).join(''))))]
  const frameStarts: number[] = []
  let at = 0
  for (const frame of frames) {
    frameStarts.push(at)
    at += frame.length
  }
  return { artifact: Buffer.concat(frames), frameStarts }
}

export type Decoded = { ok: true; value: { header: unknown; events: unknown[]; tornTail: { line: number; offset: number; reason: string } | null } } | { ok: false; error: { code: string; line?: number; message?: string } }

export function decodeZstdJsonl(artifact: Uint8Array): Decoded {
  return reference.decodeJsonl({ encoding: 'zstd', base64: Buffer.from(artifact).toString('base64') }) as Decoded
}

export function decodeRawJsonl(text: string): Decoded {
  return reference.decodeJsonl({ text }) as Decoded
}

/** What the compressed blocks of some frames use, read from their headers without decoding (RFC 8878, 3.1.1.3). */
export interface BlockCensus {
  blocks: Record<'raw' | 'rle' | 'compressed', number>
  literals: Record<'raw' | 'rle' | 'huffman1' | 'huffman4' | 'treeless1' | 'treeless4', number>
  /** Sequence table modes, per code kind: predefined, rle, fse, repeat. */
  modes: Record<'literalLength' | 'offset' | 'matchLength', [number, number, number, number]>
  noSequences: number
  /** Huffman tree descriptions (section 4.2.1) of compressed literals: 4-bit weights as they are, or FSE-coded. */
  huffmanWeights: { direct: number; fse: number }
  /** Blocks whose size field is the 128 KiB maximum, and whose content is (a compressed block's can only be known by decoding). */
  fullSizeRawOrRle: number
  sequenceCountBytes: [number, number, number]
}

export function emptyCensus(): BlockCensus {
  return {
    blocks: { raw: 0, rle: 0, compressed: 0 },
    literals: { raw: 0, rle: 0, huffman1: 0, huffman4: 0, treeless1: 0, treeless4: 0 },
    modes: { literalLength: [0, 0, 0, 0], offset: [0, 0, 0, 0], matchLength: [0, 0, 0, 0] },
    noSequences: 0, huffmanWeights: { direct: 0, fse: 0 }, fullSizeRawOrRle: 0, sequenceCountBytes: [0, 0, 0],
  }
}

/** Adds one compressed block's literal and sequence section headers (RFC 8878, 3.1.1.3) to `census`. */
function countCompressedBlock(bytes: Uint8Array, payload: number, census: BlockCensus): void {
  const first = bytes[payload] as number
  const literalType = first & 3
  const format = (first >> 2) & 3
  let sequencesAt: number
  if (literalType <= 1) {
    const headerSize = format === 1 ? 2 : format === 3 ? 3 : 1
    const literalSize = headerSize === 1 ? first >> 3 : Math.floor(littleEndian(bytes, payload, headerSize) / 16)
    census.literals[literalType === 0 ? 'raw' : 'rle']++
    sequencesAt = payload + headerSize + (literalType === 0 ? literalSize : 1)
  } else {
    const headerSize = format <= 1 ? 3 : format === 2 ? 4 : 5
    const fieldBits = format <= 1 ? 10 : format === 2 ? 14 : 18
    const compressed = Math.floor(Math.floor(littleEndian(bytes, payload, headerSize) / 16) / 2 ** fieldBits) % 2 ** fieldBits
    census.literals[`${literalType === 2 ? 'huffman' : 'treeless'}${format === 0 ? 1 : 4}`]++
    if (literalType === 2) census.huffmanWeights[(bytes[payload + headerSize] as number) >= 128 ? 'direct' : 'fse']++
    sequencesAt = payload + headerSize + compressed
  }
  const countByte = bytes[sequencesAt] as number
  const countBytes = countByte < 128 ? 1 : countByte < 255 ? 2 : 3
  census.sequenceCountBytes[countBytes - 1 as 0 | 1 | 2]++
  const count = countBytes === 1 ? countByte : countBytes === 2 ? (countByte - 128) * 256 + (bytes[sequencesAt + 1] as number) : 1
  if (count === 0) {
    census.noSequences++
    return
  }
  const modes = bytes[sequencesAt + countBytes] as number
  census.modes.literalLength[modes >> 6]!++
  census.modes.offset[(modes >> 4) & 3]!++
  census.modes.matchLength[(modes >> 2) & 3]!++
}

/** Adds the blocks of every complete frame of `bytes` (zstd frames only) to `census`. */
export function censusOf(bytes: Uint8Array, census: BlockCensus = emptyCensus()): BlockCensus {
  for (let at = 0; at + 4 <= bytes.length && littleEndian(bytes, at, 4) === ZSTD_MAGIC;) {
    const header = frameHeaderAt(bytes, at)
    if (header === undefined) return census
    for (const block of blockHeaders(bytes, header.end)) {
      at = block.payload + block.length
      if (at > bytes.length) return census
      census.blocks[block.type === 0 ? 'raw' : block.type === 1 ? 'rle' : 'compressed']++
      if (block.type !== 2 && block.size === 128 * 1024) census.fullSizeRawOrRle++
      if (block.type === 2) countCompressedBlock(bytes, block.payload, census)
    }
    if (header.checksum) at += 4
  }
  return census
}

/** Where each block of the frame at `start` begins (its 3-byte header), and where the frame's blocks end. */
export function blockStarts(bytes: Uint8Array, start: number): { starts: number[]; end: number } {
  const blocks = [...blockHeaders(bytes, (frameHeaderAt(bytes, start) as FrameHeader).end)]
  const last = blocks.at(-1) as BlockHeader
  return { starts: blocks.map(block => block.at), end: last.payload + last.length }
}

/**
 * What JSONL-15 recovers of the torn frame at `start` of `cut`, with the tool as the decoder: its
 * entirely present blocks, made into a complete frame (no content size, no checksum, the last of them
 * marked last) that `zstd -dc` decodes, then the present payload of a cut raw block within the block
 * maximum. (`zstd -dc` of the cut frame itself is no oracle: zstd 1.5.4 stops at the premature end
 * without writing what its last call decoded past its 128 KiB output buffer.)
 */
export function tornFrameByTool(cut: Uint8Array, start: number): Buffer {
  const header = frameHeaderAt(cut, start)
  if (header === undefined) return Buffer.alloc(0)
  // A window byte of at least the single-segment frame's window (its content size); matches cannot reach further anyway.
  const windowByte = header.singleSegment ? Math.max(0, Math.ceil(Math.log2(Math.max(header.windowSize, 1024))) - 10) << 3 : header.windowByte
  const blockMaximum = Math.min(header.windowSize, 128 * 1024)
  const blocks: Buffer[] = []
  let partial = Buffer.alloc(0)
  for (const block of blockHeaders(cut, header.end)) {
    if (block.payload + block.length > cut.length) {
      if (block.type === 0 && block.size <= blockMaximum) partial = Buffer.from(cut.subarray(block.payload))
      break
    }
    blocks.push(Buffer.from(cut.subarray(block.at, block.payload + block.length)))
  }
  if (blocks.length === 0) return partial
  const lastBlock = blocks[blocks.length - 1] as Buffer
  lastBlock[0] = (lastBlock[0] as number) | 1
  const frame = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, windowByte]), ...blocks])
  const decoded = zstdDecompress(frame)
  if (!decoded.ok) throw new Error(`the tool refuses the whole blocks of a torn frame: ${decoded.stderr}`)
  return Buffer.concat([decoded.content, partial])
}

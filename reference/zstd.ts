/**
 * Chapter 19, the zstd encoding (JSONL-13..15): the frame scan, the header frame, the complete frames
 * (where every defect is damage) and the torn final frame (read by the raw torn-tail rules).
 */
import { accept, reject, type Result } from './result.ts'
import { ZstdError } from './zstd-entropy.ts'
import { RAW_BLOCK, RLE_BLOCK, decodeBlock, newFrameState, type FrameState } from './zstd-decompress.ts'
import { Xxh64 } from './xxh64.ts'
import { appendTo, completeLines, countLines, decodeHeaderLine, scanLines, type JsonlValue, type LineScan } from './jsonl.ts'

const MAGIC = 0xfd2fb528
const LINE_FEED = 0x0a

interface Block {
  type: number
  size: number
  /** Where the payload starts, and how many of its bytes the artifact holds. */
  payload: number
  present: number
}

interface Frame {
  start: number
  end: number
  torn: boolean
  /** False when the frame header itself is cut (nothing of a torn frame can be recovered then). */
  headerComplete: boolean
  checksum: boolean
  dictionary: boolean
  contentSize: number | undefined
  /** Window_Size (section 3.1.1.1.2); for a single-segment frame, its content size. */
  windowSize: number
  blocks: Block[]
}

type Scanned = { ok: true; frames: Frame[] } | { ok: false; why: string }

function littleEndian(bytes: Uint8Array, at: number, count: number): number {
  let value = 0
  for (let index = count - 1; index >= 0; index--) value = value * 256 + (bytes[at + index] as number)
  return value
}

/** The blocks of a frame from `at`: where the frame ends, or undefined when the artifact ends inside it. */
function scanBlocks(bytes: Uint8Array, frame: Frame, at: number): { ok: true; end: number | undefined } | { ok: false; why: string } {
  for (let last = false; !last;) {
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: with the guard never true, a cut header reads as an empty raw block with a negative present count, which is torn too
    if (at + 3 > bytes.length) return { ok: true, end: undefined }
    const header = littleEndian(bytes, at, 3)
    last = (header & 1) === 1
    const type = (header >> 1) & 3
    const size = header >> 3
    // Stryker disable next-line ObjectLiteral: a result without ok is a failed scan too
    if (type === 3) return { ok: false, why: 'a block of the reserved type' }
    const length = type === RLE_BLOCK ? 1 : size
    // Stryker disable next-line ArithmeticOperator: a larger present count of a cut raw block only adds bytes after its last line feed, which are ignored
    const present = Math.min(length, bytes.length - at - 3)
    frame.blocks.push({ type, size, payload: at + 3, present })
    // Stryker disable next-line ConditionalExpression: the next block header then lies past the end, so the frame is torn either way, with the same blocks
    if (present < length) return { ok: true, end: undefined }
    at += 3 + length
  }
  const end = frame.checksum ? at + 4 : at
  return { ok: true, end: end > bytes.length ? undefined : end }
}

/** JSONL-14 step 1: the structure of every frame, without decompressing anything. */
function scanFrames(bytes: Uint8Array): Scanned {
  const frames: Frame[] = []
  for (let start = 0; start < bytes.length;) {
    const frame: Frame = {
      start, end: bytes.length, torn: true, contentSize: undefined, windowSize: 0, blocks: [],
      // Stryker disable next-line BooleanLiteral: all three are set before a frame's first block is read, and a frame cut before that has no blocks, so it recovers nothing whatever they say
      headerComplete: false, checksum: false, dictionary: false,
    }
    frames.push(frame)
    if (start + 4 > bytes.length) return { ok: true, frames }
    // Stryker disable next-line ObjectLiteral: a result without ok is a failed scan too
    if (littleEndian(bytes, start, 4) !== MAGIC) return { ok: false, why: 'a frame does not start with the zstd magic number' }
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: with only the magic left, the missing descriptor reads as 0, whose header needs a window byte that is missing too
    if (start + 5 > bytes.length) return { ok: true, frames }
    const descriptor = bytes[start + 4] as number
    // Stryker disable next-line ObjectLiteral: a result without ok is a failed scan too
    if ((descriptor & 0x18) !== 0) return { ok: false, why: 'reserved bits set in a frame header' }
    const singleSegment = (descriptor & 0x20) !== 0
    const sizeFlag = descriptor >> 6
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number
    const contentBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][sizeFlag] as number
    const headerEnd = start + 5 + (singleSegment ? 0 : 1) + dictionaryBytes + contentBytes
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a frame whose header is cut, or ends at the artifact end, recovers nothing either way
    if (headerEnd > bytes.length) return { ok: true, frames }
    frame.headerComplete = true
    frame.checksum = (descriptor & 0x04) !== 0
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a dictionary id of no bytes reads as 0, which is no dictionary
    frame.dictionary = dictionaryBytes > 0 && littleEndian(bytes, headerEnd - contentBytes - dictionaryBytes, dictionaryBytes) !== 0
    if (contentBytes > 0) frame.contentSize = littleEndian(bytes, headerEnd - contentBytes, contentBytes) + (contentBytes === 2 ? 256 : 0)
    frame.windowSize = singleSegment ? frame.contentSize as number : windowSize(bytes[start + 5] as number)
    const blocks = scanBlocks(bytes, frame, headerEnd)
    if (!blocks.ok) return blocks
    if (blocks.end === undefined) return { ok: true, frames }
    frame.torn = false
    frame.end = blocks.end
    start = blocks.end
  }
  return { ok: true, frames }
}

/** Section 3.1.1.1.2: the window size a window descriptor byte stands for. */
function windowSize(descriptor: number): number {
  const base = 2 ** (10 + (descriptor >> 3))
  return base + (base / 8) * (descriptor & 7)
}

/** Appends one whole block's content; throws ZstdError when it does not decompress. */
function decodeWholeBlock(bytes: Uint8Array, block: Block, state: FrameState): void {
  decodeBlock(block.type, block.size, bytes.subarray(block.payload, block.payload + block.present), state)
}

/** A complete frame's content, checksum verified, or undefined when it does not decompress. */
function decompressFrame(bytes: Uint8Array, frame: Frame): Uint8Array | undefined {
  if (frame.dictionary) return undefined
  const state = newFrameState(frame.windowSize)
  const hash = frame.checksum ? new Xxh64() : undefined
  try {
    for (const block of frame.blocks) {
      const before = state.output.length
      decodeWholeBlock(bytes, block, state)
      // Hashed block by block, as check hashes a streamed frame, so the vectors run Xxh64's piecewise path.
      hash?.update(state.output.since(before))
    }
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: the decoder throws nothing but ZstdError
    if (error instanceof ZstdError) return undefined
    throw error
  }
  const content = state.output.since(0)
  if (frame.contentSize !== undefined && frame.contentSize !== content.length) return undefined
  if (hash !== undefined && hash.frameChecksum() !== littleEndian(bytes, frame.end - 4, 4)) return undefined
  return content
}

/** JSONL-15: what a torn frame's present blocks give; nothing when the header is cut or a block fails. */
function recoverTornFrame(bytes: Uint8Array, frame: Frame): Uint8Array {
  if (!frame.headerComplete || frame.dictionary) return new Uint8Array()
  const state = newFrameState(frame.windowSize)
  try {
    for (const block of frame.blocks) {
      const whole = block.present === (block.type === RLE_BLOCK ? 1 : block.size)
      if (whole) decodeWholeBlock(bytes, block, state)
      // JSONL-15: a cut raw block gives its present bytes, unless its size field exceeds the block maximum.
      else if (block.type === RAW_BLOCK && block.size <= state.blockMaximum) state.output.append(bytes.subarray(block.payload, block.payload + block.present))
    }
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: the decoder throws nothing but ZstdError
    if (error instanceof ZstdError) return new Uint8Array()
    throw error
  }
  return state.output.since(0)
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}

/** JSONL-14 step 2: the header frame's content must be exactly one line. */
/** The header line the first frame holds, or why it holds none: it does not decompress, or holds other than one line. */
function headerFrameLine(bytes: Uint8Array, frame: Frame): Uint8Array | string {
  const content = decompressFrame(bytes, frame)
  if (content === undefined) return 'the first frame, which holds the header line, does not decompress'
  if (content.length === 0 || content.indexOf(LINE_FEED) !== content.length - 1) return 'the first frame is not exactly one header line'
  return content.subarray(0, -1)
}

/** JSONL-14 step 3: the other complete frames, in order; every defect in them is damage. */
function scanCompleteFrames(bytes: Uint8Array, frames: readonly Frame[]): Result<{ events: unknown[]; lines: number }> {
  let text: Uint8Array = new Uint8Array()
  let scanned = 0
  let lines = 1
  const events: unknown[] = []
  const scan: LineScan = { count: 0, defect: undefined, committed: 0 }
  const append = appendTo(events)
  for (const frame of frames) {
    const content = decompressFrame(bytes, frame)
    if (content === undefined) return reject('JSONL_FRAME_INVALID', `the frame at byte ${frame.start} does not decompress`)
    text = concat([text, content])
    const result = scanLines(completeLines(text, scanned, lines + 1), scan, true, append)
    if (!result.ok) return result
    const through = text.lastIndexOf(LINE_FEED) + 1
    lines += countLines(text.subarray(scanned, through))
    scanned = through
  }
  // JSONL-14 step 3: bytes after the last line feed of the complete frames carry no line.
  if (scanned !== text.length) return reject('JSONL_FRAME_INVALID', 'the complete frames end inside a line')
  return accept({ events, lines })
}

function decodeFrames(bytes: Uint8Array, frames: readonly Frame[]): Result<JsonlValue> {
  const complete = frames.filter(frame => !frame.torn)
  const first = complete[0]
  // JSONL-14 step 2: no complete frame means no header, reported without a line.
  if (first === undefined) return reject('JSONL_HEADER_INVALID', 'the artifact has no complete header frame')
  const headerLine = headerFrameLine(bytes, first)
  if (typeof headerLine === 'string') return reject('JSONL_FRAME_INVALID', headerLine)
  const header = decodeHeaderLine(headerLine)
  if (!header.ok) return header
  const body = scanCompleteFrames(bytes, complete.slice(1))
  if (!body.ok) return body
  const torn = frames.find(frame => frame.torn)
  if (torn === undefined) return accept({ header: header.value, events: body.value.events, tornTail: null })
  const firstTornLine = body.value.lines + 1
  const recovered = recoverTornFrame(bytes, torn)
  const events = [...body.value.events]
  const tail = scanLines(completeLines(recovered, 0, firstTornLine), { count: events.length, defect: undefined, committed: 0 }, false, appendTo(events))
  if (!tail.ok) return tail
  return accept({ header: header.value, events, tornTail: { line: firstTornLine, offset: torn.start, reason: 'unterminated' } })
}

/** `decodeJsonl` for the zstd encoding. */
export function decodeZstdArtifact(bytes: Uint8Array): Result<JsonlValue> {
  const scanned = scanFrames(bytes)
  if (!scanned.ok) return reject('JSONL_FRAME_INVALID', scanned.why)
  return decodeFrames(bytes, scanned.frames)
}

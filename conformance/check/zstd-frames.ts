// JSONL-14 step 1 over a file: the structure of each zstd frame (magic, descriptor, header fields,
// block headers, checksum), read without decompressing anything, the way reference/zstd.ts scans an
// artifact held in memory. Only the layout of one frame is held at a time.
import { blockMaximumOf } from '../../reference/zstd-decompress.ts'
import { plural } from '../wording.ts'
import type { ByteSource } from './byte-source.ts'

const MAGIC = 0xfd2fb528
/** RFC 8878's skippable frames: magic numbers 0x184D2A50 to 0x184D2A5F. */
const SKIPPABLE_MAGIC = 0x184d2a50
const OPEN_BRACE = 0x7b
const RAW_BLOCK = 0
const RLE_BLOCK = 1
const RESERVED_BLOCK = 3

export interface FrameLayout {
  start: number
  /** Where the frame ends (the end of the artifact for a torn frame). */
  end: number
  torn: boolean
  /** False when the frame header itself is cut. */
  headerComplete: boolean
  headerEnd: number
  checksum: boolean
  dictionary: boolean
  contentSize: number | undefined
  /** The window size the header gives, or the content size of a single-segment frame. */
  windowSize: number
  /**
   * The history a decoder keeps: the window, or for a complete frame the content size when the header
   * gives a smaller one (no match reaches back before the frame's start). A complete frame whose
   * content outgrows its stated size is refused either way, so a match it makes past this history fails
   * it no less rightly; a torn frame's content size is not checked (JSONL-14), so its blocks may reach
   * back the whole window.
   */
  historySize: number
  /** Where the last entirely present block ends. */
  wholeBlocksEnd: number
  /** For a torn frame whose first incomplete block is raw and within the block maximum: the present part of its payload. */
  partialRaw: { payload: number; present: number } | undefined
}

export type FrameRead = { ok: true; frame: FrameLayout } | { ok: false; why: string }

function littleEndian(bytes: Uint8Array, at: number, count: number): number {
  let value = 0
  for (let index = count - 1; index >= 0; index--) value = value * 256 + (bytes[at + index] as number)
  return value
}

function windowOf(singleSegment: boolean, windowByte: number, contentSize: number | undefined): number {
  if (singleSegment) return contentSize ?? 0
  const base = 2 ** (10 + (windowByte >> 3))
  return base + (base / 8) * (windowByte & 7)
}

/**
 * For a log read as zstd whose bytes start with "{": a hint that they are a raw log's, the likeliest
 * mistake being a raw log under a zstd name.
 */
export function rawBytesHint(bytes: Uint8Array): string {
  return bytes[0] === OPEN_BRACE ? ' (its bytes start with "{", as a raw log\'s do: a log is read as zstd only when its name ends in .zstd or .zst)' : ''
}

const SKIPPABLE_FRAME = 'start a skippable frame, which JSONL-13 does not allow'

/** Why the bytes at `start`, after `frames` complete frames, start no frame, with what they look like. */
function notAFrameStart(head: Uint8Array, start: number, frames: number): string {
  const skippable = (littleEndian(head, 0, 4) & ~0xf) === SKIPPABLE_MAGIC
  if (start === 0) return `the artifact does not start with the zstd magic number${skippable ? `: its bytes ${SKIPPABLE_FRAME}` : rawBytesHint(head)}`
  const looks = skippable ? `: they ${SKIPPABLE_FRAME}`
    : head[0] === OPEN_BRACE ? ': they start with "{", as a raw record line does (raw lines appended to a zstd log?)'
    : ''
  return `the bytes at byte ${start}, after ${plural(frames, 'complete frame')}, do not start with the zstd magic number${looks}`
}

/** The blocks from `at`: fills the frame's block facts; where a block of the reserved type starts, if one does. */
function readBlocks(source: ByteSource, frame: FrameLayout, from: number): number | undefined {
  let at = from
  for (let last = false; !last;) {
    const header = source.bytes(at, 3)
    if (header.length < 3) return undefined
    const value = littleEndian(header, 0, 3)
    last = (value & 1) === 1
    const type = (value >> 1) & 3
    const size = value >> 3
    if (type === RESERVED_BLOCK) return at
    const length = type === RLE_BLOCK ? 1 : size
    const present = Math.min(length, source.size - at - 3)
    if (present < length) {
      // JSONL-15: a cut raw block gives its present bytes, unless its size field exceeds the block maximum.
      if (type === RAW_BLOCK && size <= blockMaximumOf(frame.windowSize)) frame.partialRaw = { payload: at + 3, present }
      return undefined
    }
    at += 3 + length
    frame.wholeBlocksEnd = at
  }
  const end = frame.checksum ? at + 4 : at
  if (end <= source.size) {
    frame.torn = false
    frame.end = end
  }
  return undefined
}

/**
 * The layout of the frame at `start`, after `frames` complete frames; a frame the artifact ends inside
 * is torn.
 */
export function readFrame(source: ByteSource, start: number, frames: number): FrameRead {
  const frame: FrameLayout = {
    start, end: source.size, torn: true, headerComplete: false, headerEnd: start, checksum: false, dictionary: false,
    contentSize: undefined, windowSize: 0, historySize: 0, wholeBlocksEnd: start, partialRaw: undefined,
  }
  const head = source.bytes(start, 18)
  if (head.length < 4) return { ok: true, frame }
  if (littleEndian(head, 0, 4) !== MAGIC) return { ok: false, why: notAFrameStart(head, start, frames) }
  if (head.length < 5) return { ok: true, frame }
  const descriptor = head[4] as number
  if ((descriptor & 0x18) !== 0) return { ok: false, why: `the frame at byte ${start} sets reserved bits in its header` }
  const singleSegment = (descriptor & 0x20) !== 0
  const sizeFlag = descriptor >> 6
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number
  const contentBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][sizeFlag] as number
  const headerLength = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + contentBytes
  if (head.length < headerLength) return { ok: true, frame }
  frame.headerComplete = true
  frame.headerEnd = start + headerLength
  frame.wholeBlocksEnd = frame.headerEnd
  frame.checksum = (descriptor & 0x04) !== 0
  frame.dictionary = dictionaryBytes > 0 && littleEndian(head, headerLength - contentBytes - dictionaryBytes, dictionaryBytes) !== 0
  if (contentBytes > 0) frame.contentSize = littleEndian(head, headerLength - contentBytes, contentBytes) + (contentBytes === 2 ? 256 : 0)
  frame.windowSize = windowOf(singleSegment, head[5] as number, frame.contentSize)
  const reserved = readBlocks(source, frame, frame.headerEnd)
  if (reserved !== undefined) return { ok: false, why: `the frame at byte ${start} holds a block of the reserved type at byte ${reserved}` }
  frame.historySize = frame.torn ? frame.windowSize : Math.min(frame.windowSize, frame.contentSize ?? frame.windowSize)
  return { ok: true, frame }
}

export type FrameScan = { ok: true; frames: number; torn: FrameLayout | undefined } | { ok: false; why: string }

/** Every frame in order, without decompressing: how many are complete, and the torn one, if any. */
export function scanFrames(source: ByteSource): FrameScan {
  let frames = 0
  for (let start = 0; start < source.size;) {
    const read = readFrame(source, start, frames)
    if (!read.ok) return read
    if (read.frame.torn) return { ok: true, frames, torn: read.frame }
    frames += 1
    start = read.frame.end
  }
  return { ok: true, frames, torn: undefined }
}

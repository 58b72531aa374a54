// The decodeJsonl probe, one plan in four of those no other artifact edit took, over the artifact stored
// as zstd frames (spec/19-jsonl.md, JSONL-13 to JSONL-15): the header line in a frame of its own, the
// bytes after it in up to four frames cut at drawn offsets (so a line may span two frames, and a frame
// may be empty), each frame single-segment with its content size and checksum, its content in raw
// blocks. Half of them are then cut inside their last frame, which leaves a torn frame. So the frame
// scan, the content checks, lines across frames and the recovery of a torn frame meet the same logs as
// the raw decoder, and the storage damage of the run's plan comes along inside the frames. A compressor
// is out of reach here, so compressed blocks are left to the vectors. Drawn from a seed of the run's
// plan, as the other artifact edits are (artifact-text.ts); its disagreements are a class of their own.
import { Xxh64 } from '../../reference/xxh64.ts'
import { saltedChooser, type Chooser } from '../generators/index.ts'

/** The variant of the probes over such artifacts (Probe.variant). */
export const ZSTD_FRAMES_VARIANT = 'zstd frames'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const ZSTD_FRAMES_SALT = 0x5a535444

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd]
/** Frame header descriptor bits: the single-segment flag and the content checksum flag. */
const SINGLE_SEGMENT = 0x20
const CHECKSUM = 0x04
/** The largest block RFC 8878 allows (and so the largest raw block here). */
const BLOCK_MOST = 128 * 1024

/** The frame content size field of a single-segment frame: its flag (the descriptor's top bits) and bytes. */
function contentSizeField(size: number): { flag: number; bytes: number[] } {
  if (size < 256) return { flag: 0, bytes: [size] }
  if (size < 65536 + 256) return { flag: 1, bytes: [(size - 256) & 0xff, (size - 256) >> 8] }
  return { flag: 2, bytes: [size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, size >>> 24] }
}

/** The block headers and contents of `content` in raw blocks; an empty content is one empty last block. */
export function rawBlocks(content: Uint8Array): Buffer {
  const parts: Uint8Array[] = []
  for (let start = 0; start === 0 || start < content.length; start += BLOCK_MOST) {
    const block = content.subarray(start, start + BLOCK_MOST)
    const last = start + BLOCK_MOST >= content.length ? 1 : 0
    // Block_Header: last flag, block type 0 (raw), then the size, little-endian in 3 bytes.
    const header = last | (block.length << 3)
    parts.push(Buffer.from([header & 0xff, (header >>> 8) & 0xff, header >>> 16]), block)
  }
  return Buffer.concat(parts)
}

/** One zstd frame holding `content`: single-segment, with its content size and its checksum. */
export function rawFrame(content: Uint8Array): Buffer {
  const size = contentSizeField(content.length)
  const sum = new Xxh64()
  sum.update(content)
  const checksum = Buffer.alloc(4)
  checksum.writeUInt32LE(Number(sum.digest() & 0xffffffffn))
  return Buffer.concat([Buffer.from([...MAGIC, (size.flag << 6) | SINGLE_SEGMENT | CHECKSUM, ...size.bytes]), rawBlocks(content), checksum])
}

/** `bytes` cut at up to three drawn offsets, in order (a piece may be empty). */
function pieces(bytes: Uint8Array, chooser: Chooser): Uint8Array[] {
  const cuts = Array.from({ length: chooser.int(4) }, () => chooser.int(bytes.length + 1)).sort((a, b) => a - b)
  return [0, ...cuts].map((start, index) => bytes.subarray(start, [...cuts, bytes.length][index]))
}

/**
 * The artifact's bytes as zstd frames, one plan in four; undefined for the others. Half of the framed
 * artifacts are cut inside their last frame, after its first byte and before its last.
 */
export function asZstdFrames(bytes: Buffer, planSeed: number): Buffer | undefined {
  const chooser = saltedChooser(planSeed, ZSTD_FRAMES_SALT)
  if (chooser.int(4) !== 0) return undefined
  const headerEnd = bytes.indexOf(0x0a) + 1
  const headerFrame = rawFrame(bytes.subarray(0, headerEnd))
  const frames = pieces(bytes.subarray(headerEnd), chooser).map(rawFrame)
  const artifact = Buffer.concat([headerFrame, ...frames])
  if (chooser.int(2) === 0) return artifact
  const lastFrame = frames.at(-1)!
  return artifact.subarray(0, artifact.length - lastFrame.length + 1 + chooser.int(lastFrame.length - 1))
}

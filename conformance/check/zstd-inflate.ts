// Decompressing one zstd frame of a file, block by block, its content handed on as each block is
// decoded (JSONL-14, JSONL-15). Compressed blocks go through the reference's RFC 8878 decoder, so that
// `check` judges every frame exactly as the reference does: the pure-JS fzstd decodes some frames that
// RFC 8878 (and libzstd) reject, such as a sequence bitstream with bits left over or bytes after an
// empty sequences section, and libzstd ignores reserved bits that the reference rejects.
import { WINDOW_BYTES, type ByteSource } from './byte-source.ts'
import type { FrameLayout } from './zstd-frames.ts'
import { ByteOutput } from '../../reference/byte-output.ts'
import { Xxh64 } from '../../reference/xxh64.ts'
import { RLE_BLOCK, decodeBlock, newFrameState, type FrameState } from '../../reference/zstd-decompress.ts'
import { ZstdError } from '../../reference/zstd-entropy.ts'

export type ContentHandler = (bytes: Uint8Array) => void

/**
 * What may stop a decoder between blocks: it is told the bytes of each block's content, and once it is
 * `exhausted` no further block is decoded (audit's memory limit, which a few bytes of run-length blocks
 * would pass a thousandfold). A stopped frame is judged no further.
 */
export interface ContentBudget {
  content(bytes: number): void
  readonly exhausted: boolean
}

/** The budget of a decoder that runs to the end. */
const UNBOUNDED: ContentBudget = { content: () => undefined, exhausted: false }

interface BlockHeader {
  last: boolean
  type: number
  size: number
  /** The bytes the block takes after its 3-byte header. */
  length: number
}

function blockHeader(source: ByteSource, at: number): BlockHeader {
  const header = source.bytes(at, 3)
  const value = (header[0] as number) | (header[1] as number) << 8 | (header[2] as number) << 16
  const type = (value >> 1) & 3
  const size = value >> 3
  return { last: (value & 1) === 1, type, size, length: type === RLE_BLOCK ? 1 : size }
}

/**
 * The decoder's output of one frame. Blocks append to `state.output`; only the frame's window of
 * history is kept, so memory stays bounded. A match reaching past the kept history fails like one
 * reaching before the frame start (RFC 8878 lets no match reach further back than the window).
 */
class FrameDecoder {
  readonly state: FrameState
  private handed = 0

  constructor(
    private readonly frame: FrameLayout,
    private readonly onContent: ContentHandler,
  ) {
    this.state = newFrameState(frame.windowSize)
  }

  block(source: ByteSource, at: number, header: BlockHeader): void {
    // A block larger than the source's window exceeds RFC 8878's block maximum, which decodeBlock
    // rejects from the size alone, so a window's worth of its payload is all it can need.
    decodeBlock(header.type, header.size, source.bytes(at + 3, Math.min(header.length, WINDOW_BYTES)), this.state)
    const output = this.state.output
    if (output.length > this.handed) this.onContent(output.since(this.handed))
    this.handed = output.length
    // Trimming only once the output holds twice the window keeps the copying linear.
    if (output.length > 2 * this.frame.historySize) {
      const history = new ByteOutput()
      history.append(output.since(output.length - this.frame.historySize))
      this.state.output = history
      this.handed = history.length
    }
  }
}

/**
 * Decodes the frame's blocks up to the last one or `end`, or until `budget` is exhausted; false when one
 * does not decompress.
 */
function decodeBlocks(source: ByteSource, frame: FrameLayout, end: number, onContent: ContentHandler, budget: ContentBudget): boolean {
  const decoder = new FrameDecoder(frame, chunk => {
    budget.content(chunk.length)
    onContent(chunk)
  })
  try {
    for (let at = frame.headerEnd, last = false; at < end && !last && !budget.exhausted;) {
      const header = blockHeader(source, at)
      decoder.block(source, at, header)
      last = header.last
      at += 3 + header.length
    }
  } catch (error) {
    if (error instanceof ZstdError) return false
    throw error
  }
  return true
}

function storedChecksum(source: ByteSource, frame: FrameLayout): number {
  return source.bytes(frame.end - 4, 4).readUInt32LE(0)
}

/**
 * Decompresses a complete frame, its content going to `onContent` as it is decoded; says why the frame
 * does not decompress, or undefined when it does and its size and checksum hold, or `budget` stopped
 * it. Callers check the window against their limit first.
 */
export function inflateFrame(source: ByteSource, frame: FrameLayout, onContent: ContentHandler, budget = UNBOUNDED): string | undefined {
  if (frame.dictionary) return 'it names a dictionary, which the layout never uses'
  const hash = new Xxh64()
  let size = 0
  const decoded = decodeBlocks(source, frame, frame.end, (chunk) => {
    hash.update(chunk)
    size += chunk.length
    onContent(chunk)
  }, budget)
  if (!decoded) return 'a block of it does not decode'
  if (budget.exhausted) return undefined
  if (frame.contentSize !== undefined && frame.contentSize !== size) return `its content is ${size} bytes, where its header gives ${frame.contentSize}`
  if (frame.checksum && hash.frameChecksum() !== storedChecksum(source, frame)) return 'its content does not match its checksum'
  return undefined
}

/**
 * JSONL-15: what a torn frame gives, to `onContent`: its entirely present blocks, then the present
 * bytes of a cut raw block; nothing when the header is cut or any present block fails to decode (a
 * first pass finds that out, so no content is handed on before it is known to stand).
 */
export function recoverTornFrame(source: ByteSource, frame: FrameLayout, onContent: ContentHandler, budget = UNBOUNDED): void {
  if (!frame.headerComplete || frame.dictionary) return
  // The first pass spends the budget, so that it stops as soon as the content would.
  if (!decodeBlocks(source, frame, frame.wholeBlocksEnd, () => {}, budget) || budget.exhausted) return
  decodeBlocks(source, frame, frame.wholeBlocksEnd, onContent, UNBOUNDED)
  const raw = frame.partialRaw
  if (raw === undefined) return
  for (let at = raw.payload; at < raw.payload + raw.present; at += WINDOW_BYTES) {
    onContent(Buffer.from(source.bytes(at, Math.min(WINDOW_BYTES, raw.payload + raw.present - at))))
  }
}

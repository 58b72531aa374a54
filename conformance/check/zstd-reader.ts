// The zstd encoding (JSONL-13..15), frame by frame: a structure scan of the whole file first (step 1
// comes before anything is decompressed), then the header frame, the complete frames (every defect is
// damage, and a frame that does not decompress outranks a bad line inside it, which the reference only
// meets after decompressing the frame whole), and last the torn frame, read by the raw rules.
import type { ByteSource } from './byte-source.ts'
import type { ArtifactCheck, ArtifactOutcome, CheckSettings } from './artifact.ts'
import { LineSplitter } from './lines.ts'
import { readFrame, scanFrames, type FrameLayout } from './zstd-frames.ts'
import { inflateFrame, recoverTornFrame, type ContentHandler } from './zstd-inflate.ts'
import { plural } from '../wording.ts'

const LINE_FEED = 0x0a

/**
 * The largest window the decoder holds: the 8 MiB every decoder should support (RFC 8878, 3.1.1.1.2),
 * which JSONL-14 has every reader accept and no writer exceed, and every compression level but the
 * "ultra" ones stays within. The decoder keeps up to twice the window of history, in a byte array that
 * may have reserved twice that again, so a 128 MiB window (`zstd --long`) would hold half a gigabyte.
 */
export const MOST_WINDOW_BYTES = 8 * 1024 * 1024

/** A decoder's history is bounded by the same budget as the lines it may produce, and by MOST_WINDOW_BYTES. */
function windowLimit(settings: CheckSettings): number {
  return Math.min(2 * settings.maxLineBytes, settings.mostWindowBytes ?? MOST_WINDOW_BYTES)
}

function withinWindowLimit(artifact: ArtifactCheck, frame: FrameLayout, settings: CheckSettings): boolean {
  // A frame naming a dictionary is refused, or recovers nothing, without a block decoded: no window to hold.
  if (frame.dictionary || frame.historySize <= windowLimit(settings)) return true
  // All its digits: String() of a size past 2^53 ends in zeros (the size was read into a double, so
  // past 2^53 it is the double nearest to the one the frame states).
  const window = { frameStart: frame.start, bytes: BigInt(frame.historySize) }
  artifact.stopAtLimit({
    code: 'CHECK_WINDOW_TOO_LARGE',
    window,
    message: `the frame at byte ${window.frameStart} needs a ${window.bytes}-byte window, over the checker's limit of ${windowLimit(settings)} (twice --max-line-bytes, and at most ${MOST_WINDOW_BYTES}, what RFC 8878 asks every decoder to support); decompress the log with zstd -d and check the raw file (if zstd -d refuses the frame too, the frame is damaged)`,
  })
  return false
}

/** JSONL-14, for `--writer`: a frame's header, if present, declares no window over MOST_WINDOW_BYTES. */
function checkWrittenWindow(artifact: ArtifactCheck, frame: FrameLayout, line: number, settings: CheckSettings): void {
  if (settings.writer === true && frame.headerComplete && frame.windowSize > MOST_WINDOW_BYTES) artifact.frameWithWideWindow(frame.start, line, frame.windowSize)
}

/** JSONL-14 step 2: the first frame's content is exactly the header line with its line feed. */
function checkHeaderFrame(source: ByteSource, frame: FrameLayout, artifact: ArtifactCheck, settings: CheckSettings): void {
  const pieces: Uint8Array[] = []
  let length = 0
  let feeds = 0
  let last = -1
  const collect: ContentHandler = (chunk) => {
    for (let at = chunk.indexOf(LINE_FEED); at !== -1; at = chunk.indexOf(LINE_FEED, at + 1)) feeds += 1
    if (length <= settings.maxLineBytes) pieces.push(Uint8Array.prototype.slice.call(chunk))
    length += chunk.length
    last = chunk[chunk.length - 1] as number
  }
  const why = inflateFrame(source, frame, collect, artifact)
  if (artifact.exhausted) return
  if (why !== undefined || feeds !== 1 || last !== LINE_FEED) {
    artifact.contextLine = 1
    if (why !== undefined) return artifact.rejectStorage('JSONL_FRAME_INVALID', `the first frame, which holds the header line, does not decompress: ${why}`)
    // `zstd session.jsonl` writes the whole log as one frame, the likeliest way to end here.
    const wholeLog = feeds > 1 ? ` but holds ${feeds} lines: a log compressed whole, as \`zstd FILE\` writes it, is one frame, and the layout wants the header line in a frame of its own, then a frame per append batch` : ''
    return artifact.rejectStorage('JSONL_FRAME_INVALID', `the first frame is not exactly one header line${wholeLog}`)
  }
  if (length - 1 > settings.maxLineBytes) return artifact.oversized(1)
  artifact.headerLine(Buffer.concat(pieces).subarray(0, length - 1), 0)
  if (settings.writer === true && !frame.checksum) artifact.frameWithoutChecksum(frame.start, 1)
}

/**
 * JSONL-13, for `--writer`: a complete frame after the header's holds one batch, whole lines, with its
 * checksum; and ROW-6: the batch is packed as a writer that packs packs it.
 */
function checkWrittenFrame(artifact: ArtifactCheck, frame: FrameLayout, firstLine: number, contentBytes: number, splitter: LineSplitter, last: boolean): void {
  artifact.batchEnd(frame.start)
  if (!frame.checksum) artifact.frameWithoutChecksum(frame.start, firstLine)
  if (contentBytes === 0) artifact.frameNotABatch(frame.start, firstLine, 'its content is empty')
  // A cut line in the last complete frame is the reader's fault (JSONL-14 step 3), not only the writer's.
  else if (splitter.tailLength > 0 && !last) artifact.frameNotABatch(frame.start, firstLine, `its content ends inside line ${splitter.number}, which the next frame goes on with`)
}

function recordSplitter(artifact: ArtifactCheck, settings: CheckSettings, firstNumber: number, strict: boolean): LineSplitter {
  const splitter: LineSplitter = new LineSplitter({
    line(bytes, number, start, end) {
      artifact.recordLine(bytes, number, start, end, strict)
      if (artifact.finished) splitter.stop()
    },
    oversized(number, _start, _end, mayHoldTurnEnd) {
      if (artifact.passesOver(mayHoldTurnEnd)) return
      artifact.oversized(number)
      splitter.stop()
    },
  }, settings.maxLineBytes, firstNumber)
  return splitter
}

/** JSONL-14 step 3; returns the number of the first line after the complete frames. */
function checkCompleteFrames(source: ByteSource, first: FrameLayout, frames: number, artifact: ArtifactCheck, settings: CheckSettings): number {
  const splitter = recordSplitter(artifact, settings, 2, true)
  if (settings.writer === true) artifact.trackBatches()
  let start = first.end
  for (let index = 1; index < frames && !artifact.finished; index++) {
    const read = readFrame(source, start, index)
    if (!read.ok) break
    const frame = read.frame
    const firstLine = splitter.number
    checkWrittenWindow(artifact, frame, firstLine, settings)
    if (!withinWindowLimit(artifact, frame, settings)) break
    let contentBytes = 0
    const fault = inflateFrame(source, frame, chunk => {
      contentBytes += chunk.length
      splitter.push(chunk)
    }, artifact)
    if (fault !== undefined) artifact.rejectFrame(frame.start, firstLine, fault)
    else if (settings.writer === true) checkWrittenFrame(artifact, frame, firstLine, contentBytes, splitter, index === frames - 1)
    start = frame.end
  }
  if (!artifact.finished && splitter.tailLength > 0) {
    // JSONL-14 step 3: this fault carries no line; the message says where the cut line starts.
    artifact.rejectStorage('JSONL_FRAME_INVALID', `the complete frames end inside line ${splitter.number}`)
  }
  return splitter.number
}

/**
 * JSONL-15: the torn frame's content, scanned by the raw torn-tail rules; bytes after its last line
 * feed are ignored. Returns how many events the reader keeps from it.
 */
function checkTornFrame(source: ByteSource, torn: FrameLayout, firstLine: number, artifact: ArtifactCheck, settings: CheckSettings): number {
  checkWrittenWindow(artifact, torn, firstLine, settings)
  if (!withinWindowLimit(artifact, torn, settings)) return 0
  const eventsBefore = artifact.scan?.state.count ?? 0
  artifact.scan?.restart(0)
  const splitter = recordSplitter(artifact, settings, firstLine, false)
  recoverTornFrame(source, torn, chunk => splitter.push(chunk), artifact)
  // A torn frame holds the start of a batch, and a departure from ROW-6 shows in the lines before it.
  if (settings.writer === true) artifact.batchEnd(torn.start)
  return (artifact.scan?.state.count ?? 0) - eventsBefore
}

export function checkZstdArtifact(source: ByteSource, artifact: ArtifactCheck): ArtifactOutcome {
  const settings = artifact.settings
  const extent = { bytes: source.size }
  const scanned = scanFrames(source)
  if (!scanned.ok) {
    artifact.rejectStorage('JSONL_FRAME_INVALID', scanned.why)
    return artifact.outcome(null, extent)
  }
  const first = readFrame(source, 0, 0)
  if (scanned.frames === 0 || !first.ok) {
    // JSONL-14 step 2: reported without a line.
    const why = source.size === 0 ? 'it is empty' : `its ${plural(source.size, 'byte')} end inside its first frame (a crash during the first write?)`
    artifact.rejectStorage('JSONL_HEADER_INVALID', `the artifact has no complete header frame: ${why}`)
    return artifact.outcome(null, extent)
  }
  checkWrittenWindow(artifact, first.frame, 1, settings)
  if (withinWindowLimit(artifact, first.frame, settings)) checkHeaderFrame(source, first.frame, artifact, settings)
  if (artifact.finished) return artifact.outcome(null, extent)
  const firstTornLine = checkCompleteFrames(source, first.frame, scanned.frames, artifact, settings)
  const torn = scanned.torn
  if (torn === undefined || artifact.finished) return artifact.outcome(null, extent)
  const tornFrameEvents = checkTornFrame(source, torn, firstTornLine, artifact, settings)
  return artifact.outcome({ line: firstTornLine, offset: torn.start, reason: 'unterminated' }, { ...extent, tornFrameEvents })
}

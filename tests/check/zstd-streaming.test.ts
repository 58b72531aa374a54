// check's zstd streaming (conformance/check/zstd-reader.ts, zstd-inflate.ts) where a scoped mutation
// run (stryker.zstd.config.mjs) found mutants that no test killed: empty blocks, the line limit in zstd
// frames, the facts-only pass over a torn frame, I/O errors while decoding, frames whose window check
// refuses them, history trimming in a small-window frame, memory on a huge frame, how much the reader
// asks its byte source for, and the reasons its messages give; and the bug it led to, a torn frame
// whose content outgrows its stated size.
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { ArtifactCheck } from '../../conformance/check/artifact.ts'
import { memoryByteSource, type ByteSource } from '../../conformance/check/byte-source.ts'
import { bytesToHold } from '../../conformance/check/check-file.ts'
import type { CheckSettings } from '../../conformance/check/artifact.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { checkZstdArtifact } from '../../conformance/check/zstd-reader.ts'
import { rawFrame as sizedFrame } from '../../conformance/fuzz/zstd-frames.ts'
import { blockHeader, check, frameChecksum, hasZstdTool, pipelineOutcome, rawFrame, tempFolder, WINDOW_128_KIB, ZSTD_MAGIC, zstdArtifact } from './support.ts'
import { HEADER, only, runChild, text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

/** A frame of one raw block holding `content`, then an empty last raw block (as a streaming compressor's flush then end writes it). */
function frameWithEmptyLastBlock(content: Uint8Array): Buffer {
  return Buffer.concat([ZSTD_MAGIC, Buffer.from([0x04, WINDOW_128_KIB]), blockHeader(false, 0, content.length), content, blockHeader(true, 0, 0), frameChecksum(content)])
}

const settings = (more: Partial<CheckSettings> = {}): CheckSettings => ({ vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, ...more })

/** A byte source over `bytes` that records every request, and may fail some. */
function spySource(bytes: Uint8Array, fail?: (at: number, length: number) => boolean): ByteSource & { calls: Array<{ at: number; length: number }> } {
  const inner = memoryByteSource(bytes)
  const calls: Array<{ at: number; length: number }> = []
  return {
    size: inner.size,
    calls,
    bytes(at, length) {
      calls.push({ at, length })
      if (fail?.(at, length) === true) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })
      return inner.bytes(at, length)
    },
  }
}

/** `frame` with its window descriptor set to 2^26 bytes (64 MiB), as `zstd --long=26` writes it. */
function wide(frame: Buffer): Buffer {
  const copy = Buffer.from(frame)
  copy[5] = (26 - 10) << 3
  return copy
}

describe('zstd blocks that add no content', () => {
  it('an empty last block ends a frame, the header frame too, without changing its content', () => {
    const lines = turnLines()
    const bytes = zstdArtifact(lines, [2, 3], frameWithEmptyLastBlock)
    const report = check(folder.write('empty-last-block.jsonl.zstd', bytes))
    expect(report.outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 6, tornTail: null })
  })
})

describe('the line limit in zstd frames', () => {
  it('a header line exactly --max-line-bytes long is read; one byte longer stops at line 1', () => {
    // A header-only artifact: one single-segment frame, whose history is its content size (the header line and its feed).
    const bytes = sizedFrame(Buffer.from(`${HEADER}\n`))
    const file = folder.write('header-at-limit.jsonl.zstd', bytes)
    const within = check(file, { maxLineBytes: HEADER.length })
    expect(within.outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
    expect(within.outcome).toMatchObject({ verdict: 'accepted', events: 0 })
    const over = check(file, { maxLineBytes: HEADER.length - 1 })
    expect(over.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(only(over, 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: 1 })
  })

  it('a record line over --max-line-bytes in a complete frame, or in the torn one, stops at its line', () => {
    const lines = turnLines()
    const longest = lines.reduce((most, line, index) => (line.length > (lines[most] as string).length ? index : most), 0)
    const maxLineBytes = (lines[longest] as string).length - 1
    const bytes = zstdArtifact(lines, [1], sizedFrame)
    const complete = check(folder.write('long-line.jsonl.zstd', bytes), { maxLineBytes })
    expect(complete.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(only(complete, 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: longest + 1 })
    // The long line and the one after it in the last frame, cut inside that second line.
    const head = zstdArtifact(lines.slice(0, longest), [1], sizedFrame)
    const tornFrame = sizedFrame(Buffer.from(text(lines.slice(longest, longest + 2))))
    const torn = Buffer.concat([head, tornFrame.subarray(0, tornFrame.length - 10)])
    const inTorn = check(folder.write('long-line-torn.jsonl.zstd', torn), { maxLineBytes })
    expect(inTorn.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(only(inTorn, 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: longest + 1 })
  })
})

describe('the facts-only pass (audit) over a zstd log', () => {
  it('reads the lines of a torn final frame for their notices, as check does', () => {
    const lines = turnLines().map((line, index) => (index >= 4 ? `${line}\r` : line))
    const whole = zstdArtifact(lines, [3])
    const torn = whole.subarray(0, whole.length - 10)
    const report = check(folder.write('torn-crlf.jsonl.zstd', torn))
    const notices = report.diagnostics.filter(diagnostic => diagnostic.severity === 'notice' && diagnostic.code !== 'TORN_TAIL')
    expect(notices.map(notice => notice.code)).toEqual(['CARRIAGE_RETURN'])
    expect(bytesToHold(torn, 'zstd', { bytes: DEFAULT_MAX_LINE_BYTES, values: DEFAULT_MAX_LINE_BYTES }).notices).toEqual(notices)
  })
})

describe('an I/O error while a frame is decoded', () => {
  // The frame scan reads 18 bytes at a frame start and 3 at a block header; only decoding reads a
  // block's payload, longer than that here.
  it('is thrown out of the reader (check reports CHECK_IO_ERROR), not taken for a frame that does not decode', () => {
    const bytes = zstdArtifact(turnLines(), [3])
    const source = spySource(bytes, (_at, length) => length > 18)
    expect(() => checkZstdArtifact(source, new ArtifactCheck(settings()))).toThrow(/EIO/)
  })

  it('in the torn final frame too, which would otherwise read as a frame that recovers nothing', () => {
    const lines = turnLines()
    // The last frame in two raw blocks, cut inside the second: the first is decoded (and its read fails) in recoverTornFrame's first pass.
    const first = Buffer.from(text(lines.slice(4, 6)))
    const second = Buffer.from(text(lines.slice(6)))
    const last = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x04, WINDOW_128_KIB]), blockHeader(false, 0, first.length), first, blockHeader(true, 0, second.length), second, frameChecksum(Buffer.concat([first, second]))])
    const head = zstdArtifact(lines.slice(0, 4), [3])
    const tornStart = head.length
    const torn = Buffer.concat([head, last.subarray(0, last.length - 10)])
    const source = spySource(torn, (at, length) => at >= tornStart && length > 18)
    expect(() => checkZstdArtifact(source, new ArtifactCheck(settings()))).toThrow(/EIO/)
  })
})

describe('a frame whose window the checker refuses', () => {
  const lines = turnLines()
  const frames = [rawFrame(Buffer.from(`${lines[0]}\n`)), rawFrame(Buffer.from(text(lines.slice(1, 4)))), rawFrame(Buffer.from(text(lines.slice(4))))]
  const starts = [0, frames[0]!.length, frames[0]!.length + frames[1]!.length]

  /** Checks the artifact with frame `index` widened (and, when `cut`, the artifact cut inside its last frame): no payload of that frame may be read. */
  function refused(index: number, cut: boolean): void {
    const artifact = Buffer.concat(frames.map((frame, at) => (at === index ? wide(frame) : frame)))
    const bytes = cut ? artifact.subarray(0, artifact.length - 10) : artifact
    const source = spySource(bytes)
    const outcome = checkZstdArtifact(source, new ArtifactCheck(settings()))
    expect(outcome.limit, `frame ${index}`).toMatchObject({ code: 'CHECK_WINDOW_TOO_LARGE' })
    const start = starts[index] as number
    const end = start + (frames[index] as Buffer).length
    expect(source.calls.filter(call => call.at >= start && call.at < end && call.length > 18), `frame ${index}`).toEqual([])
  }

  it('is never decompressed: the header frame, a later complete frame, the torn frame', () => {
    refused(0, false)
    refused(1, false)
    refused(2, true)
  })

  it('unless it names a dictionary, which no window is needed to refuse (complete) or to recover nothing of (torn)', () => {
    const content = Buffer.from(text(lines.slice(4)))
    // A dictionary id of 1 (1 byte, descriptor flag 1) and a 64 MiB window.
    const dictionary = wide(Buffer.concat([ZSTD_MAGIC, Buffer.from([0x05, WINDOW_128_KIB, 1]), blockHeader(true, 0, content.length), content, frameChecksum(content)]))
    const complete = Buffer.concat([frames[0]!, frames[1]!, dictionary])
    const torn = complete.subarray(0, complete.length - 10)
    for (const [name, bytes, expected] of [['complete', complete, 'rejected'], ['torn', torn, 'accepted']] as const) {
      const report = check(folder.write(`dictionary-wide-${name}.jsonl.zstd`, bytes))
      expect(report.outcome, name).toEqual(pipelineOutcome(bytes, 'zstd'))
      expect(report.outcome, name).toMatchObject({ verdict: expected })
    }
  })
})

describe('a frame whose content outgrows twice its window', () => {
  it.skipIf(!hasZstdTool)('keeps a window of history for the matches of later blocks (zstd --zstd=wlog=10)', () => {
    const lines = turnLines()
    const filler = (seq: number): string => `{"type":"todo/write","seq":${seq},"time":${seq},"data":{"todos":[{"id":"t${seq}","content":"item ${seq % 7} of the list","status":"pending"}]}}`
    const batch = [lines[1] as string, ...Array.from({ length: 200 }, (_, index) => filler(index + 1))]
    const compressed = spawnSync('zstd', ['-q', '-c', '--check', '--zstd=wlog=10'], { input: text(batch) })
    expect(compressed.status).toBe(0)
    const frame = compressed.stdout
    // A 1 KiB window (descriptor byte 0), not single-segment: the decoder trims its history past 2 KiB.
    expect(frame[4]! & 0x20).toBe(0)
    expect(frame[5]).toBe(0)
    const bytes = Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), frame])
    const report = check(folder.write('small-window.jsonl.zstd', bytes))
    expect(report.outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 201 })
    // Torn anywhere in that frame, it keeps what the reference keeps: the lines of its whole blocks.
    const kept = new Set<number>()
    for (let cut = bytes.length - 1; cut > bytes.length - frame.length; cut -= 97) {
      const torn = bytes.subarray(0, cut)
      const outcome = check(folder.write('small-window-torn.jsonl.zstd', torn)).outcome
      expect(outcome, `cut at ${cut}`).toEqual(pipelineOutcome(torn, 'zstd'))
      if (outcome.verdict === 'accepted') kept.add(outcome.events)
    }
    expect(kept.size).toBeGreaterThan(3)
  })
})

/**
 * A torn final frame whose header states a content size (256 bytes) smaller than the content its
 * blocks hold. JSONL-14: "a torn frame's content size is not checked"; JSONL-15: the contents of its
 * entirely present blocks are recovered. Check trimmed its history to the stated content size
 * (FrameLayout.historySize) here too, so a match reaching further back failed, and it kept nothing of
 * the frame.
 */
function tornFrameOverItsContentSize(): Buffer {
  const lines = turnLines()
  // Lines of ~420 bytes that repeat a 352-byte text: the compressor matches each line against the one
  // before it, at an offset over 256.
  const noise = ['x', 'y', 'z', 'w'].map(seed => createHash('sha512').update(seed).digest('base64')).join('')
  const filler = (seq: number): string => `{"type":"todo/write","seq":${seq},"time":${seq},"data":{"todos":[{"id":"t${seq}","content":"${noise}","status":"pending"}]}}`
  const batch = [lines[1] as string, ...Array.from({ length: 20 }, (_, index) => filler(index + 1))]
  // A 1 KiB window, so the content spans many blocks.
  const compressed = spawnSync('zstd', ['-q', '-c', '--check', '--zstd=wlog=10'], { input: text(batch) }).stdout
  // Descriptor 0x44: a 2-byte content size field (value + 256) and the checksum flag; window byte kept; content size 256.
  const stated = Buffer.concat([compressed.subarray(0, 4), Buffer.from([0x44, compressed[5] as number, 0, 0]), compressed.subarray(6)])
  const whole = Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), stated])
  return whole.subarray(0, whole.length - 20)
}

describe('a torn final frame whose content outgrows its stated content size', () => {
  it.skipIf(!hasZstdTool)('keeps the events of its entirely present blocks, as the reference does (JSONL-14, JSONL-15)', () => {
    const bytes = tornFrameOverItsContentSize()
    const report = check(folder.write('torn-over-size.jsonl.zstd', bytes))
    expect(pipelineOutcome(bytes, 'zstd')).toMatchObject({ verdict: 'accepted', events: 18 })
    expect(report.outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
  })
})

describe('a header frame of 200 MiB', () => {
  // A 128 KiB window, RLE blocks of 128 KiB 'a' bytes (4 bytes each), then the line feed: 200 MiB of
  // content in a 6 KiB file. No checksum. --max-line-bytes 65536 allows the 128 KiB window.
  const rle = Buffer.concat([blockHeader(false, 1, 128 * 1024), Buffer.from('a')])
  const hugeHeader = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x00, WINDOW_128_KIB]), ...Array.from({ length: 1600 }, () => rle), blockHeader(true, 0, 1), Buffer.from('\n')])

  it('is decoded in bounded memory, in this process (the byte source samples the memory of array buffers as blocks are read)', () => {
    const inner = memoryByteSource(hugeHeader)
    let peak = 0
    const sampling: ByteSource = { size: inner.size, bytes: (at, length) => { peak = Math.max(peak, process.memoryUsage().arrayBuffers); return inner.bytes(at, length) } }
    const before = process.memoryUsage().arrayBuffers
    const outcome = checkZstdArtifact(sampling, new ArtifactCheck(settings({ maxLineBytes: 65536 })))
    expect(outcome.limit).toMatchObject({ code: 'CHECK_LINE_TOO_LONG', line: 1 })
    expect((peak - before) / 2 ** 20).toBeLessThan(128)
  })

  it('is decoded in bounded memory: the history is trimmed, and the header line is never assembled', () => {
    const file = folder.write('huge-header.jsonl.zstd', hugeHeader)
    const run = runChild([file, '--format', 'json', '--max-line-bytes', '65536'])
    expect(run.status).toBe(2)
    const report = (JSON.parse(run.stdout) as { files: Array<Parameters<typeof only>[0]> }).files[0]!
    expect(report.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(only(report, 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: 1 })
    // About 150 MB; about 360 MB when the history is never trimmed or every piece of the line is kept.
    expect(run.maxRssMb).toBeLessThan(250)
  })
})

describe('a content budget (audit\'s memory limit)', () => {
  // 1,600 run-length blocks of 128 KiB: 200 MiB of content, in a header frame, or in a torn final frame
  // after a sound header frame. A budget of 1 MiB must stop the decoder, not only the lines.
  const rle = Buffer.concat([blockHeader(false, 1, 128 * 1024), Buffer.from('a')])
  const runs = Array.from({ length: 1600 }, () => rle)
  const frameStart = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x00, WINDOW_128_KIB])])
  const inHeader = Buffer.concat([frameStart, ...runs, blockHeader(true, 0, 1), Buffer.from('\n')])
  const inTornFrame = Buffer.concat([rawFrame(Buffer.from(`${HEADER}\n`)), frameStart, ...runs])
  const budgeted = { ...settings({ maxLineBytes: 1 << 20 }), factsOnly: true, mostContentBytes: 1 << 20 }
  // The blocks decoded: a run-length block's payload is its one byte (the walks over the frames read only
  // the 3-byte block headers).
  const decodedBlocks = (source: ReturnType<typeof spySource>): number => source.calls.filter(call => call.length === 1).length

  // Eight blocks are 1 MiB: the ninth passes it, or the eighth after the header frame's line.
  for (const [where, bytes, blocks] of [['a header frame', inHeader, 9], ['a torn final frame', inTornFrame, 8]] as const) {
    it(`stops decoding ${where} once its content passes the budget`, () => {
      const source = spySource(bytes)
      const outcome = checkZstdArtifact(source, new ArtifactCheck(budgeted))
      expect(outcome.pastMost).toBe('bytes')
      // A torn frame's first pass stops there, and no second pass follows.
      expect(decodedBlocks(source)).toBe(blocks)
    })
  }

  it('decodes every block without a budget', () => {
    const source = spySource(inTornFrame)
    expect(checkZstdArtifact(source, new ArtifactCheck({ ...budgeted, mostContentBytes: undefined })).pastMost).toBeUndefined()
    // Twice each: a torn frame is decoded once to see that its blocks stand, then for its content.
    expect(decodedBlocks(source)).toBe(3200)
  })
})

describe('what the reader asks its byte source for', () => {
  it('a block\'s payload, not a window\'s worth of bytes per block (each request past the window is a read of the file)', () => {
    const bytes = zstdArtifact(turnLines(), [1])
    const source = spySource(bytes)
    const outcome = checkZstdArtifact(source, new ArtifactCheck(settings()))
    expect(outcome.decodeError).toBeUndefined()
    const asked = source.calls.reduce((total, call) => total + call.length, 0)
    expect(asked).toBeLessThan(4 * bytes.length)
  })
})

describe('the reasons a zstd fault gives', () => {
  const lines = turnLines()
  const head = rawFrame(Buffer.from(`${lines[0]}\n`))
  const rest = rawFrame(Buffer.from(text(lines.slice(4))))

  it('say why a complete frame does not decompress', () => {
    const content = Buffer.from(text(lines.slice(1, 4)))
    // A dictionary id of 1 (1 byte, descriptor flag 1).
    const dictionary = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x05, WINDOW_128_KIB, 1]), blockHeader(true, 0, content.length), content, frameChecksum(content)])
    // An RLE block standing for 256 KiB, over the 128 KiB block maximum.
    const overBlock = Buffer.concat([ZSTD_MAGIC, Buffer.from([0x04, WINDOW_128_KIB]), blockHeader(true, 1, 256 * 1024), Buffer.from('a'), frameChecksum(Buffer.alloc(0))])
    // A single-segment frame whose content size field says one byte more than it holds.
    const misSized = sizedFrame(content)
    misSized[5] = (misSized[5] as number) + 1
    for (const [name, frame, why] of [
      ['dictionary', dictionary, 'it names a dictionary, which the layout never uses'],
      ['over-block', overBlock, 'a block of it does not decode'],
      ['mis-sized', misSized, `its content is ${content.length} bytes, where its header gives ${content.length + 1}`],
    ] as const) {
      const bytes = Buffer.concat([head, frame, rest])
      const report = check(folder.write(`why-${name}.jsonl.zstd`, bytes))
      expect(report.outcome, name).toEqual(pipelineOutcome(bytes, 'zstd'))
      expect(only(report, 'error', 'JSONL_FRAME_INVALID').message, name).toBe(`corruption: the frame at byte ${head.length}, whose content starts on line 2, does not decompress: ${why}`)
    }
  })

  it('name the line that complete frames end inside, since the fault carries no line', () => {
    const bytes = Buffer.concat([head, rawFrame(Buffer.from(`${text(lines.slice(1, 3))}${lines[3]}`))])
    const report = check(folder.write('ends-inside.jsonl.zstd', bytes))
    expect(report.outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
    expect(only(report, 'error', 'JSONL_FRAME_INVALID').message).toBe('corruption: the complete frames end inside line 4')
  })

  it('say, for --writer, that an empty frame holds no batch because its content is empty', () => {
    const bytes = Buffer.concat([head, rawFrame(Buffer.from(text(lines.slice(1, 4)))), rawFrame(Buffer.alloc(0)), rest])
    const report = check(folder.write('empty-frame.jsonl.zstd', bytes), { writer: true })
    expect(only(report, 'error', 'WRITER_FRAME_BATCH').message).toContain('(its content is empty)')
  })
})

// zstd frames as check reads them (conformance/check/zstd-frames.ts), where a mutation run found no test:
// a frame with the longest header there is, and a torn last frame whose block is cut by a few bytes.
import { createHash } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { rawBlocks } from '../../conformance/fuzz/zstd-frames.ts'
import { check, compressedFrame, hasZstdTool, pipelineOutcome, rawFrame, tempFolder, xxh64, zstdArtifact } from './support.ts'
import { text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

/** A frame with the longest header RFC 8878 allows: a 4-byte dictionary ID of 0 (none) and an 8-byte content size. */
function longHeaderFrame(content: Uint8Array): Buffer {
  const header = Buffer.alloc(18)
  header.writeUInt32LE(0xfd2fb528, 0)
  header[4] = 0xc0 | 0x04 | 0x03
  header[5] = (17 - 10) << 3
  header.writeUInt32LE(0, 6)
  header.writeBigUInt64LE(BigInt(content.length), 10)
  const sum = Buffer.alloc(4)
  sum.writeUInt32LE(Number(xxh64(content) & 0xffffffffn))
  return Buffer.concat([header, rawBlocks(content), sum])
}

describe('zstd frames', () => {
  it('reads a frame whose header is 18 bytes long, the longest there is', () => {
    const lines = turnLines()
    const bytes = zstdArtifact(lines, [3], longHeaderFrame)
    const report = check(folder.write('long-header.jsonl.zstd', bytes))
    expect(report.outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 6 })
  })

  it('recovers the present bytes of a raw block cut by a few bytes in the torn last frame', () => {
    const lines = turnLines()
    const whole = Buffer.concat([zstdArtifact(lines.slice(0, 4), [3]), rawFrame(Buffer.from(`${text(lines.slice(4))}`))])
    for (const cut of [1, 2, 3, 5, 6, 7]) {
      const bytes = whole.subarray(0, whole.length - 4 - cut)
      expect(check(folder.write(`cut-${cut}.jsonl.zstd`, bytes)).outcome, `cut ${cut}`).toEqual(pipelineOutcome(bytes, 'zstd'))
    }
  })
  it.skipIf(!hasZstdTool)('keeps the whole blocks of a torn frame whose last compressed block is cut by a few bytes', () => {
    // Two turns' worth of lines over 128 KiB, so that the zstd tool writes the torn frame in several blocks.
    const filler = (seq: number): string => `{"type":"todo/write","seq":${seq},"time":${seq},"data":{"todos":[{"id":"t${seq}","content":"${createHash('sha256').update(String(seq)).digest('base64url').slice(0, 11).repeat(40)}","status":"pending"}]}}`
    const lines = turnLines()
    const batch = [...lines.slice(1, 2), ...Array.from({ length: 600 }, (_, index) => filler(index + 1))]
    const renumbered = [lines[0] as string, ...batch]
    const head = zstdArtifact(renumbered.slice(0, 2), [1])
    const frame = compressedFrame(Buffer.from(text(renumbered.slice(2))))
    for (const cut of [1, 3, 6]) {
      const bytes = Buffer.concat([head, frame.subarray(0, frame.length - 4 - cut)])
      const report = check(folder.write(`compressed-cut-${cut}.jsonl.zstd`, bytes))
      expect(report.outcome, `cut ${cut}`).toEqual(pipelineOutcome(bytes, 'zstd'))
    }
  })
})

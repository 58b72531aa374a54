// The state of one artifact's check (conformance/check/artifact.ts), in this process: what its limits
// say to a user: the line, and why the file is left unchecked.
import { afterAll, describe, expect, it } from 'vitest'
import { ArtifactCheck } from '../../conformance/check/artifact.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { checkRawArtifact, memoryChunks } from '../../conformance/check/raw-reader.ts'
import { artifactLines, unwrappedToolResult } from './log-generator.ts'
import { check, openedRecall, pipelineOutcome, tempFolder, zstdArtifact } from './support.ts'
import { text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

describe('artifact: the checker\'s limits, as a user reads them', () => {
  it('CHECK_LINE_TOO_LONG names the line, the limit and the option that raises it', () => {
    const report = check(folder.write('too-long.jsonl', text(turnLines(`[{"type":"text","text":"${'x'.repeat(400)}"}]`))), { maxLineBytes: 300 })
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' } })
    expect(report.diagnostics).toEqual([{ severity: 'error', code: 'CHECK_LINE_TOO_LONG', line: 3, message: 'not checked: line 3 is longer than the checker\'s limit of 300 bytes (--max-line-bytes)' }])
  })

  it('passes over a line past the limit in a torn tail that cannot hold a turn/end, as the reader does (JSONL-11 step 2)', () => {
    // A cut line (the first defect) at line 5, then junk longer than the limit: a torn tail, dropped.
    const torn = text([...turnLines().slice(0, 4), '{"type":"user/mess', 'x'.repeat(400)])
    const report = check(folder.write('junk-tail.jsonl', torn), { maxLineBytes: 300 })
    expect(report.outcome).toEqual(pipelineOutcome(Buffer.from(torn), 'raw'))
    expect(report.outcome).toMatchObject({ verdict: 'accepted', tornTail: { line: 5 } })
    // Junk that might write a turn/end is no line to pass over: the check stops there, at the limit.
    for (const mark of ['turn/end', '\\u0074urn/end']) {
      const marked = text([...turnLines().slice(0, 4), '{"type":"user/mess', `${'x'.repeat(400)}${mark}`])
      expect(check(folder.write('marked-tail.jsonl', marked), { maxLineBytes: 300 })).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' } })
    }
    // The same in a torn final zstd frame, read by the raw torn-tail rules (JSONL-15): its last frame holds
    // the cut line and the junk, and has lost its checksum. (A limit of 64 KiB allows the frames' 128 KiB
    // windows: twice the limit.)
    const frames = zstdArtifact([...turnLines().slice(0, 4), '{"type":"user/mess', 'x'.repeat(70_000)], [3, 2])
    const tornFrame = frames.subarray(0, frames.length - 4)
    const zstdReport = check(folder.write('junk-tail.jsonl.zstd', tornFrame), { maxLineBytes: 65_536 })
    expect(zstdReport.outcome).toEqual(pipelineOutcome(tornFrame, 'zstd'))
    expect(zstdReport.outcome).toMatchObject({ verdict: 'accepted', tornTail: { line: 5 } })
    // Before the first defect, a line past the limit stops the check, whatever it holds.
    const early = text([...turnLines().slice(0, 4), 'x'.repeat(400), '{"type":"user/mess'])
    expect(check(folder.write('early-junk.jsonl', early), { maxLineBytes: 300 })).toMatchObject({ status: 'unchecked', outcome: { code: 'CHECK_LINE_TOO_LONG' } })
  })

  it('CHECK_LINE_TOO_LONG on line 1 as soon as an unterminated first line from a pipe passes the limit: a stream with no line feed ends', () => {
    // A source of digits that sends no line feed (as /dev/zero, or a pipe, sends none): the read must
    // stop at the limit. It ends after 64 reads, so that a regression fails here instead of hanging.
    let reads = 0
    const zeros = (into: Buffer): number => {
      reads += 1
      return reads > 64 ? 0 : into.fill(0x30).length
    }
    const outcome = checkRawArtifact(zeros, new ArtifactCheck({ vocabulary: 'v0-pinned', maxLineBytes: 3 << 20 }), false)
    expect(outcome.limit).toEqual({ code: 'CHECK_LINE_TOO_LONG', line: 1, message: 'line 1 is longer than the checker\'s limit of 3145728 bytes (--max-line-bytes)' })
    expect(outcome.decodeError).toBeUndefined()
    expect(reads).toBe(4)
    // Bytes that end (a regular file) are read to their end: a first line never ended is no header line
    // (JSONL-6), however long, and one within the limit too.
    reads = 0
    const ended = checkRawArtifact(zeros, new ArtifactCheck({ vocabulary: 'v0-pinned', maxLineBytes: 3 << 20 }), true)
    expect(ended).toMatchObject({ limit: undefined, decodeError: { code: 'JSONL_HEADER_INVALID', line: 1 } })
    expect(reads).toBe(65)
    const short = checkRawArtifact(memoryChunks(Buffer.from('{"type":"session"')), new ArtifactCheck({ vocabulary: 'v0-pinned', maxLineBytes: 300 }), false)
    expect(short).toMatchObject({ limit: undefined, decodeError: { code: 'JSONL_HEADER_INVALID', line: 1 } })
  })

  // A legacy rewrite (LEGACY-11) makes the load read the file again for the message ids before it.
  const lines = [...artifactLines('legacy-21', 400, 21, { compaction: 0.15, staleBracket: 0.1, prune: 0.6 })].map(unwrappedToolResult)
  const rewrite = lines.findIndex(line => line.startsWith('{"type":"tool/result"') && line.includes('"op":"replace"')) + 1
  const settings = { vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES }

  it('CHECK_INTERNAL_ERROR: a line whose check throws stops the check at that line, saying why', () => {
    expect(rewrite).toBeGreaterThan(2)
    const failing = (): never => {
      throw new Error('the recall failed')
    }
    const outcome = checkRawArtifact(memoryChunks(Buffer.from(text(lines))), new ArtifactCheck(settings, { recall: failing }), true)
    expect(outcome.limit).toEqual({ code: 'CHECK_INTERNAL_ERROR', line: rewrite, message: `line ${rewrite} could not be checked: the recall failed` })
  })

  it('CHECK_IO_ERROR: a second read that no longer reaches the line, the file having changed, stops the check there', () => {
    const changed = openedRecall(folder.write('changed.jsonl', text(lines.slice(0, 2))))
    const outcome = checkRawArtifact(memoryChunks(Buffer.from(text(lines))), new ArtifactCheck(settings, { recall: changed.recall }), true)
    changed.close()
    expect(outcome.limit).toEqual({
      code: 'CHECK_IO_ERROR',
      line: rewrite,
      message: `line ${rewrite} could not be checked: reading the file again for the message ids before line ${rewrite} (LEGACY-11) did not reach that line: the file changed while it was checked`,
    })
  })
})

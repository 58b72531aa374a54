// The state of one artifact's check (conformance/check/artifact.ts), in this process: what its limits
// say to a user: the line, and why the file is left unchecked.
import { afterAll, describe, expect, it } from 'vitest'
import { ArtifactCheck } from '../../conformance/check/artifact.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { checkRawArtifact, memoryChunks } from '../../conformance/check/raw-reader.ts'
import { artifactLines, unwrappedToolResult } from './log-generator.ts'
import { check, openedRecall, tempFolder } from './support.ts'
import { text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

describe('artifact: the checker\'s limits, as a user reads them', () => {
  it('CHECK_LINE_TOO_LONG names the line, the limit and the option that raises it', () => {
    const report = check(folder.write('too-long.jsonl', text(turnLines(`[{"type":"text","text":"${'x'.repeat(400)}"}]`))), { maxLineBytes: 300 })
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' } })
    expect(report.diagnostics).toEqual([{ severity: 'error', code: 'CHECK_LINE_TOO_LONG', line: 3, message: 'not checked: line 3 is longer than the checker\'s limit of 300 bytes (--max-line-bytes)' }])
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
    const outcome = checkRawArtifact(memoryChunks(Buffer.from(text(lines))), new ArtifactCheck(settings, { recall: failing }))
    expect(outcome.limit).toEqual({ code: 'CHECK_INTERNAL_ERROR', line: rewrite, message: `line ${rewrite} could not be checked: the recall failed` })
  })

  it('CHECK_IO_ERROR: a second read that no longer reaches the line, the file having changed, stops the check there', () => {
    const changed = openedRecall(folder.write('changed.jsonl', text(lines.slice(0, 2))))
    const outcome = checkRawArtifact(memoryChunks(Buffer.from(text(lines))), new ArtifactCheck(settings, { recall: changed.recall }))
    changed.close()
    expect(outcome.limit).toEqual({
      code: 'CHECK_IO_ERROR',
      line: rewrite,
      message: `line ${rewrite} could not be checked: reading the file again for the message ids before line ${rewrite} (LEGACY-11) did not reach that line: the file changed while it was checked`,
    })
  })
})

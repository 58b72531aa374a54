// LEGACY-11 in a streaming check (conformance/check/message-ids.ts): a legacy tool-result rewrite
// inherits the message id recorded for the seq its replace starts at. A check of a file holds no id
// until such a rewrite asks, then reads the file again for them; a check of a pipe holds them all.
// Either way its outcome is the reference pipeline's.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { MessageIdRecorder } from '../../conformance/check/message-ids.ts'
import { StreamingLoad } from '../../conformance/check/streaming-load.ts'
import type { FileReport } from '../../conformance/check/check-file.ts'
import type { JsonRecord } from '../../reference/lossless-json.ts'
import { artifactLines, unwrappedToolResult } from './log-generator.ts'
import { check, openedRecall, pipelineOutcome, tempFolder, zstdArtifact } from './support.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

/** Many prunes, so that a short log holds several rewrites. */
const RATES = { compaction: 0.15, staleBracket: 0.1, prune: 0.6 }
const TOOL_RESULT = /^\{"type":"tool\/result"/

/** A generated log with every tool result unwrapped: its prune rewrites are legacy rewrites. */
function legacyLog(seed: number, size = 400): string[] {
  return [...artifactLines(`legacy-${seed}`, size, seed, RATES)].map(unwrappedToolResult)
}

function isLegacyRewrite(line: string): boolean {
  return TOOL_RESULT.test(line) && line.includes('"op":"replace"')
}

describe('LEGACY-11 in check', () => {
  it('accepts legacy rewrites that keep the id of the result they replace, raw and zstd, as the reference does', () => {
    let rewrites = 0
    for (const seed of [3, 8, 13, 21]) {
      const lines = legacyLog(seed)
      rewrites += lines.filter(isLegacyRewrite).length
      const raw = Buffer.from(`${lines.join('\n')}\n`)
      // Each rewrite replaces from the seq of the result it prunes (the generator's prune), so it inherits
      // that result's id (LEGACY-8 for an unwrapped append, or the id it inherited in turn): REWR-3 holds.
      expect(pipelineOutcome(raw, 'raw').verdict, `seed ${seed}`).toBe('accepted')
      expect(check(folder.write(`legacy-${seed}.jsonl`, raw)).outcome, `seed ${seed}`).toEqual(pipelineOutcome(raw, 'raw'))
      const zstd = zstdArtifact(lines, [5, 2])
      expect(check(folder.write(`legacy-${seed}.jsonl.zstd`, zstd)).outcome, `seed ${seed} as zstd`).toEqual(pipelineOutcome(zstd, 'zstd'))
    }
    expect(rewrites).toBeGreaterThan(3)
  })

  it('rejects a legacy rewrite whose start is the seq of no message, as the reference does', () => {
    const lines = legacyLog(8)
    const at = lines.findIndex(isLegacyRewrite)
    const seqOf = (type: string): number => (JSON.parse(lines.find(line => line.startsWith(`{"type":"${type}"`)) as string) as { seq: number }).seq
    // No id is recorded for a turn/start, nor for a seq no event has: the message gets no id, and VOC-9
    // rejects it in the shape phase, before replay could object to the moved range. A user message's
    // seq gives it that message's id, and the moved range fails in replay.
    const cases = [[seqOf('turn/start'), 'MESSAGE_ID_INVALID'], [99999, 'MESSAGE_ID_INVALID'], [seqOf('user/message'), undefined]] as const
    for (const [start, code] of cases) {
      const moved = [...lines]
      moved[at] = (lines[at] as string).replace(/"start":\d+/, `"start":${start}`)
      const raw = Buffer.from(`${moved.join('\n')}\n`)
      const expected = pipelineOutcome(raw, 'raw')
      expect(expected, `start ${start}`).toMatchObject({ verdict: 'rejected', ...(code === undefined ? {} : { code }) })
      if (code === undefined) expect(expected).not.toMatchObject({ code: 'MESSAGE_ID_INVALID' })
      expect(check(folder.write(`moved-${start}.jsonl`, raw)).outcome, `start ${start}`).toEqual(expected)
    }
  })

  it('reads the file again when the legacy rewrite is its last line', () => {
    const lines = legacyLog(21)
    const first = lines.findIndex(isLegacyRewrite)
    expect(first).toBeGreaterThan(0)
    const cut = lines.slice(0, first + 1)
    const raw = Buffer.from(`${cut.join('\n')}\n`)
    expect(pipelineOutcome(raw, 'raw').verdict).toBe('accepted')
    expect(check(folder.write('legacy-last.jsonl', raw)).outcome).toEqual(pipelineOutcome(raw, 'raw'))
  })

  it('reaches the same outcome on a pipe, which it cannot read again', () => {
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const raw = Buffer.from(`${legacyLog(13).join('\n')}\n`)
    const log = folder.write('legacy-piped.jsonl', raw)
    // Through a shell pipe: node's own `input` is a socket, which /dev/stdin cannot be opened on.
    const piped = spawnSync('sh', ['-c', `cat '${log}' | '${process.execPath}' '${bin}' check --format json /dev/stdin`], { encoding: 'utf8' })
    const [report] = (JSON.parse(piped.stdout) as { files: FileReport[] }).files
    expect(report?.outcome).toEqual(pipelineOutcome(raw, 'raw'))
  })

  it('reaches it through a socket and a redirected file too, whose ids it keeps from the start, as a pipe\'s', () => {
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const raw = Buffer.from(`${legacyLog(13).join('\n')}\n`)
    const log = folder.write('legacy-redirected.jsonl', raw)
    // Node's own `input` is a socket, which /dev/stdin cannot be opened on: check reads descriptor 0.
    const socket = spawnSync(process.execPath, [bin, 'check', '--format', 'json', '-'], { input: raw, encoding: 'utf8' })
    expect((JSON.parse(socket.stdout) as { files: FileReport[] }).files[0]?.outcome).toEqual(pipelineOutcome(raw, 'raw'))
    // A redirect makes stdin the file itself, which may stand anywhere in it: here after a first line
    // the shell's `read` took (a second read from the file's start would meet that line as the header).
    const redirected = spawnSync('sh', ['-c', `'${process.execPath}' '${bin}' check --format json - < '${log}'`], { encoding: 'utf8' })
    expect((JSON.parse(redirected.stdout) as { files: FileReport[] }).files[0]?.outcome).toEqual(pipelineOutcome(raw, 'raw'))
    const afterALine = folder.write('legacy-after-a-line.jsonl', Buffer.concat([Buffer.from('not the log\n'), raw]))
    const offset = spawnSync('bash', ['-c', `{ read -r _; '${process.execPath}' '${bin}' check --format json -; } < '${afterALine}'`], { encoding: 'utf8' })
    expect((JSON.parse(offset.stdout) as { files: FileReport[] }).files[0]?.outcome).toEqual(pipelineOutcome(raw, 'raw'))
  })
})

describe('the message ids a streaming load holds', () => {
  /**
   * Feeds a load the events of a raw log, one per line from line 2, noting the lines it recalls at; a
   * load that cannot read its log again (`rereadable` false) gets no recall.
   */
  function loadWithRecalls(lines: readonly string[], rereadable = true): { events: readonly unknown[]; recalls: number[]; fault: unknown } {
    const decoded = reference.decodeJsonl({ base64: Buffer.from(`${lines.join('\n')}\n`).toString('base64'), encoding: 'raw' })
    if (!decoded.ok) throw new Error(decoded.error.message)
    const { header, events } = decoded.value
    const recalls: number[] = []
    const recall = (line: number, sessionId: string): Map<number, string> => {
      recalls.push(line)
      const recorder = new MessageIdRecorder(sessionId, line)
      events.forEach((event, index) => recorder.line({ event }, index + 2))
      return recorder.ids
    }
    const load = new StreamingLoad({ header, sessionId: header['id'], vocabulary: 'v0-pinned' }, rereadable ? recall : undefined)
    events.forEach((event, index) => load.line({ event }, index + 2))
    return { events, recalls, fault: load.finish().fault }
  }

  const isRewriteEvent = (event: unknown): boolean => isLegacyRewrite(JSON.stringify(event))

  it('asks for none on a log in the current shapes', () => {
    const { recalls, fault } = loadWithRecalls([...artifactLines('current', 2000, 4, RATES)])
    expect(fault).toBeUndefined()
    expect(recalls).toEqual([])
  })

  it('asks once, at the first legacy rewrite, and keeps recording the ids after it', () => {
    const { events, recalls, fault } = loadWithRecalls(legacyLog(21, 2000))
    const rewrites = events.flatMap((event, index) => (isRewriteEvent(event) ? [index] : []))
    const first = rewrites[0] as number
    expect(recalls).toEqual([first + 2])
    // A later rewrite of a result appended after the recall inherits an id recorded after it: the load
    // accepts the log only if it kept recording.
    const startOf = (index: number): number => ((events[index] as JsonRecord)['surfaceOp'] as { start: number }).start
    expect(rewrites.some(index => startOf(index) > first)).toBe(true)
    expect(fault).toBeUndefined()
  })

  it('records every id from the start when the log cannot be read again', () => {
    const { events, fault } = loadWithRecalls(legacyLog(21, 2000), false)
    expect(events.filter(isRewriteEvent).length).toBeGreaterThan(1)
    expect(fault).toBeUndefined()
  })

  it('stops a check with a clear message when the file no longer holds the lines it read', () => {
    const file = folder.write('short.jsonl', `${legacyLog(3, 20).join('\n')}\n`)
    const { recall, close } = openedRecall(file)
    expect(recall(5, 'legacy-3').size).toBeGreaterThan(0)
    expect(() => recall(10_000, 'legacy-3')).toThrow(/before line 10000 \(LEGACY-11\) did not reach that line: the file changed while it was checked/)
    close()
  })
})

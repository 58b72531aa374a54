// check and audit close every file they open, on every way out: a folder of more logs than the process
// may hold open (`ulimit -n`) would otherwise end in EMFILE part way through. Counted in this process,
// through /proc/self/fd, around synchronous calls, so nothing else opens or closes a file between; and
// once end to end, a folder checked under a low `ulimit -n`.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { readLog } from '../../conformance/audit/command.ts'
import { artifactLines, unwrappedToolResult } from './log-generator.ts'
import { text, turnLines } from './small-logs.ts'
import { check, rawFrame, tempFolder, zstdArtifact } from './support.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

const PROC_FD = '/proc/self/fd'
const openDescriptors = (): number => readdirSync(PROC_FD).length

/** The descriptors `run` leaves open, and what it returned or threw. */
function leftOpen(run: () => unknown): { left: number; result: unknown } {
  const before = openDescriptors()
  let result: unknown
  try {
    result = run()
  } catch (error) {
    result = error
  }
  return { left: openDescriptors() - before, result }
}

describe.skipIf(!existsSync(PROC_FD))('descriptors', () => {
  const legacy = [...artifactLines('legacy-fd', 400, 13, { compaction: 0.15, staleBracket: 0.1, prune: 0.6 })].map(unwrappedToolResult)
  const files = {
    'a valid raw log': () => folder.write('valid.jsonl', text(turnLines())),
    'a raw log rejected by load': () => folder.write('fault.jsonl', text(turnLines().map(line => line.replace('"surfaceOp":"append"', '"surfaceOp":null')))),
    'a raw log stopped by the line limit': () => folder.write('long.jsonl', text(turnLines('[{"type":"text","text":"' + 'x'.repeat(70_000) + '"}]'))),
    'a zstd log': () => folder.write('valid.jsonl.zstd', zstdArtifact(turnLines(), [2])),
    'a zstd log with a bad checksum': () => {
      const frames = zstdArtifact(turnLines(), [2])
      const last = frames.length - 1
      frames.writeUInt8((frames.readUInt8(last) ^ 0xff), last)
      return folder.write('checksum.jsonl.zstd', frames)
    },
    'a zstd log with a torn frame': () => folder.write('torn.jsonl.zstd', Buffer.concat([zstdArtifact(turnLines(), [2]), rawFrame(Buffer.from('{"type":"x"}\n')).subarray(0, 9)])),
    // LEGACY-11: a second read of the file for the message ids (conformance/check/message-ids.ts).
    'a raw log read twice for legacy message ids': () => folder.write('legacy.jsonl', text(legacy)),
    'a zstd log read twice for legacy message ids': () => folder.write('legacy.jsonl.zstd', zstdArtifact(legacy, [3])),
  }

  for (const [name, write] of Object.entries(files)) {
    it(`check closes what it opens for ${name}`, () => {
      const file = write()
      const { left, result } = leftOpen(() => check(file, { maxLineBytes: 65_536 }))
      expect(result).toHaveProperty('status')
      expect(left).toBe(0)
    })
  }

  it('the legacy logs are read twice, and the others are what their names say', () => {
    const reports = Object.fromEntries(Object.entries(files).map(([name, write]) => [name, check(write(), { maxLineBytes: 65_536 }).outcome]))
    expect(reports).toMatchObject({
      'a valid raw log': { verdict: 'accepted' },
      'a raw log rejected by load': { verdict: 'rejected', operation: 'load' },
      'a raw log stopped by the line limit': { verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' },
      'a zstd log': { verdict: 'accepted' },
      'a zstd log with a bad checksum': { verdict: 'rejected', operation: 'decodeJsonl' },
      'a zstd log with a torn frame': { verdict: 'accepted', tornTail: { reason: 'unterminated' } },
      'a raw log read twice for legacy message ids': { verdict: 'accepted' },
      'a zstd log read twice for legacy message ids': { verdict: 'accepted' },
    })
    expect(legacy.some(line => line.startsWith('{"type":"tool/result"') && line.includes('"op":"replace"'))).toBe(true)
  })

  // The limit leaves room for the loader: tsx opens the modules of check several at a time at start-up,
  // over 40 at once on a CI machine. A descriptor left open per log still runs out part way through.
  const DESCRIPTOR_LIMIT = 256
  const LOGS_IN_FOLDER = 400
  it('check reads a folder of more logs than the process may hold open', () => {
    const many = path.join(folder.dir, 'many')
    mkdirSync(many)
    for (let index = 0; index < LOGS_IN_FOLDER; index++) folder.write(`many/log-${index}.jsonl`, text(turnLines()))
    const bin = fileURLToPath(new URL('../../conformance/bin.mjs', import.meta.url))
    const run = spawnSync('sh', ['-c', `ulimit -n ${DESCRIPTOR_LIMIT} && '${process.execPath}' '${bin}' check '${many}'`], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.stdout).toContain(`checked ${LOGS_IN_FOLDER} files: ${LOGS_IN_FOLDER} valid, 0 invalid, 0 unchecked`)
    expect(run.status).toBe(0)
  })

  it('audit closes what it opens, a device read to its end or stopped at its limit', () => {
    expect(leftOpen(() => readLog('/dev/null', 1 << 20))).toMatchObject({ left: 0 })
    const stopped = leftOpen(() => readLog('/dev/zero', 1 << 16))
    expect(stopped.result).toBeInstanceOf(Error)
    expect(String(stopped.result)).toMatch(/more than the 65,?536 bytes audit can hold/)
    expect(stopped.left).toBe(0)
  })
})

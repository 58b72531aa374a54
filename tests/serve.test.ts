// `dsh-conformance serve` in this process, fed lines as the runner would send them, or worse: every
// line that is garbage or a message that breaks the protocol ends it with exit 2 and one line on stderr,
// never with an exception.
import { PassThrough } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import { protocolLine, runMessage, startMessage, stopMessage } from '../conformance/protocol.ts'
import { serve } from '../conformance/serve.ts'
import type { CliOutcome } from './support/cli.ts'

const START = protocolLine(startMessage())
const STOP = protocolLine(stopMessage())

/** What serve does with `chunks` as its stdin: its exit status and what it wrote to stdout and stderr. */
async function served(chunks: AsyncIterable<Buffer> | readonly (string | Buffer)[]): Promise<CliOutcome> {
  const input = Symbol.asyncIterator in chunks ? chunks : (async function* () {
    for (const chunk of chunks) yield Buffer.from(chunk)
  })()
  const stdout: string[] = []
  const stderr: string[] = []
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0),
  ]
  try {
    const code = await serve(input)
    return { code, stdout: stdout.join(''), stderr: stderr.join('') }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}

const replies = (outcome: CliOutcome): unknown[] => outcome.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown)

describe('serve reads lines as the protocol has them', () => {
  it('answers a message split across chunks and a CR LF line', async () => {
    const run = protocolLine(runMessage(0, 'surface', { events: [] }))
    const outcome = await served([START.slice(0, 5), `${START.slice(5, -1)}\r\n`, run.slice(0, 9), run.slice(9)])
    expect(outcome.stderr).toBe('')
    expect(outcome.code).toBe(0)
    expect(replies(outcome)).toEqual([expect.objectContaining({ protocol: 1 }), { seq: 0, result: { ok: true, value: { nodes: [], replacements: [], generation: 0 } } }])
  })

  it('refuses a last line with no line feed, a whole message or not, as the runner refuses such a reply', async () => {
    const run = protocolLine(runMessage(0, 'surface', { events: [] }))
    const whole = await served([START, run.slice(0, -1)])
    expect(whole.code).toBe(2)
    expect(replies(whole)).toEqual([expect.objectContaining({ protocol: 1 })])
    expect(whole.stderr).toBe(`dsh-conformance serve: stdin ended inside a line (${run.length - 1} bytes with no line feed): ${run.slice(0, -1)}\n`)
    const cut = await served([START, '{"cmd":"run","seq":0,"oper'])
    expect(cut.stderr).toBe('dsh-conformance serve: stdin ended inside a line (26 bytes with no line feed): {"cmd":"run","seq":0,"oper\n')
    expect([cut.code, replies(cut).length]).toEqual([2, 1])
  })

  it('ends on stop though its stdin stays open, and closes it', async () => {
    const stdin = new PassThrough()
    stdin.write(`${START}${STOP}`)
    const outcome = await served(stdin)
    expect([outcome.code, replies(outcome).length, stdin.destroyed]).toEqual([0, 1, true])
  })

  it('refuses a line that is not well-formed UTF-8 with exit 2, instead of answering it with U+FFFD in its place', async () => {
    const run = Buffer.concat([Buffer.from('{"cmd":"run","seq":0,"operation":"surface","input":{"events":[],"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')])
    const outcome = await served([START, run, STOP])
    expect(outcome.code).toBe(2)
    expect(replies(outcome)).toHaveLength(1)
    expect(outcome.stderr).toMatch(/^dsh-conformance serve: a line that is not well-formed UTF-8 \(at byte 69: 22 3a 22 ff\): \{"cmd":"run"/)
    expect(outcome.stderr.split('\n')).toHaveLength(2)
  })

  it('refuses a line past the protocol\'s 256 MiB with exit 2 as soon as it passes them, without reading the rest', async () => {
    let given = 0
    const endless = async function* (): AsyncGenerator<Buffer> {
      const mebibyte = Buffer.alloc(2 ** 20, 'a')
      while (given < 600) {
        given += 1
        yield mebibyte
      }
    }
    const outcome = await served(endless())
    expect(outcome).toEqual({ code: 2, stdout: '', stderr: 'dsh-conformance serve: a line longer than 268435456 bytes (256 MiB), the most the protocol allows\n' })
    expect(given).toBe(257)
  })
})

describe('serve refuses a message that breaks the protocol with exit 2 and one line on stderr', () => {
  it('names the line it refuses with its control characters escaped', async () => {
    const outcome = await served([START, 'not json\u001b]0;T\u0007\u001b[2J\n', STOP])
    expect(outcome.stderr).toBe('dsh-conformance serve: not JSON: not json\\u001b]0;T\\u0007\\u001b[2J\n')
    const cmd = await served([START, `${JSON.stringify({ cmd: 'x\u001b[2J' })}\n`, STOP])
    expect(cmd.stderr).toBe('dsh-conformance serve: no known cmd: {"cmd":"x\\u001b[2J"}\n')
  })

  it('takes a cmd that names a member every object inherits for no known cmd', async () => {
    for (const cmd of ['toString', 'hasOwnProperty', '__proto__', 'constructor']) {
      const line = JSON.stringify({ cmd })
      const outcome = await served([START, `${line}\n`, STOP])
      expect(outcome.stderr).toBe(`dsh-conformance serve: no known cmd: ${line}\n`)
      expect([outcome.code, replies(outcome).length], cmd).toEqual([2, 1])
    }
  })

  it('gives a line nested 50,000 deep the schema\'s answer where the schema can tell, and refuses it as too deep to check where it cannot', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
    const unknownMember = await served([START, `{"cmd":"run","seq":0,"operation":"load","input":{"events":[]},"x":${deep}}\n`])
    expect(unknownMember.stderr).toMatch(/^dsh-conformance serve: not a valid protocol-run message: \/ has a member it may not have: "x": \{"cmd"/)
    const deepInput = await served([START, `{"cmd":"run","seq":0,"operation":"load","input":{"events":${deep}}}\n`])
    expect(deepInput.stderr).toMatch(/^dsh-conformance serve: a protocol-run message nested too deeply to check \(send deep chains of one-element arrays as the nested tag\): \{"cmd"/)
    expect([unknownMember.code, deepInput.code]).toEqual([2, 2])
  })

  it('refuses a message out of the protocol\'s order: anything before start, and a second start', async () => {
    const run = protocolLine(runMessage(0, 'surface', { events: [] }))
    const runFirst = await served([run, START, STOP])
    expect(runFirst).toEqual({ code: 2, stdout: '', stderr: `dsh-conformance serve: run before start, which is the first message an adapter process receives: ${run}` })
    const stopFirst = await served([STOP])
    expect(stopFirst).toEqual({ code: 2, stdout: '', stderr: `dsh-conformance serve: stop before start, which is the first message an adapter process receives: ${STOP}` })
    const twoStarts = await served([START, run, START, STOP])
    expect(twoStarts.stderr).toBe(`dsh-conformance serve: a second start: a process is started once (the runner starts a new process to start again): ${START}`)
    expect([twoStarts.code, replies(twoStarts).length]).toEqual([2, 2])
  })
})

// What the subprocess adapter (conformance/subprocess-adapter.ts) makes of replies and of its own life:
// a reply the protocol refuses is an error of its step, never a pass; a start reply of another
// protocol, or of no object, is refused; bad options are named; close() fails what is in flight and
// starts nothing after it. Written by the mutation audit of the runner's verdict code (CHANGELOG,
// 2026-12-06): each test pins a change of the code that survived every other test.
import { afterAll, describe, expect, it } from 'vitest'
import type { Adapter } from '../conformance/adapter.ts'
import { runCase } from '../conformance/run-case.ts'
import { startSubprocessAdapter, type SubprocessOptions } from '../conformance/subprocess-adapter.ts'
import { projectRoot, type VectorCase } from '../conformance/vector-cases.ts'
import { user } from './reference/helpers.ts'

const fake = (behaviour: string): string => `node tests/fakes/fake-adapter.mjs ${behaviour}`
const opened: Adapter[] = []
afterAll(async () => {
  await Promise.all(opened.map((adapter) => adapter.close?.().catch(() => undefined)))
})

async function open(behaviour: string, options: SubprocessOptions = {}): Promise<Adapter> {
  const adapter = await startSubprocessAdapter(fake(behaviour), { cwd: projectRoot, timeoutMs: 1000, ...options })
  opened.push(adapter)
  return adapter
}

const INPUT = { events: [user(0)] }
const FOLDED = { ok: true, value: { nodes: [0], replacements: [], generation: 0 } }
const surface = (adapter: Adapter): Promise<unknown> => Promise.resolve(adapter.operations.surface!(INPUT))

describe('a reply the protocol refuses is an error of its step, never a pass', () => {
  it('under another seq, even with the right result', async () => {
    await expect(surface(await open('wrong-seq'))).rejects.toThrow(/^invalid reply: its seq is 1; at request seq 0 \(surface\), sent after its start reply$/)
    const vector: VectorCase = {
      id: 'wrong-seq', title: 'wrong seq', file: 'tests/subprocess-adapter.test.ts', chapter: '05-surface', requirements: ['SURF-6'], profile: 'reader', review: false,
      steps: [{ operation: 'surface', input: INPUT, expect: { value: FOLDED.value } }],
    }
    expect(await runCase(await open('wrong-seq'), vector)).toMatchObject({ status: 'error', reason: expect.stringMatching(/^invalid reply: its seq is /) })
  })

  it('holding a malformed tagged value, which it names', async () => {
    await expect(surface(await open('malformed-tag'))).rejects.toThrow(/^invalid reply: the value holds a malformed tagged value \(.*no-such-tag.*\); at request seq 0 \(surface\)$/)
  })

  it('with a protocol member, which only a start reply has', async () => {
    await expect(surface(await open('result-protocol'))).rejects.toThrow(/^invalid reply: not a valid protocol-result message: .*"protocol"/)
  })

  it('but an error reply without a traceback is an adapter error with its message', async () => {
    await expect(surface(await open('error-no-traceback'))).rejects.toThrow(/^adapter error: boom$/)
  })

  it('and a timeout names its request once', async () => {
    await expect(surface(await open('hang', { timeoutMs: 300 }))).rejects.toThrow(/^timeout: no reply to request seq 0 \(surface\) within 300 ms \(an adapter must flush its stdout after each reply\)$/)
  })
})

describe('a start reply', () => {
  it('of another protocol version is refused, naming both versions', async () => {
    await expect(open('start-protocol-2')).rejects.toThrow(/^invalid reply: the adapter speaks protocol 2, the runner protocol 1$/)
  })

  it('that is no object is an invalid reply, not an exception of the runner', async () => {
    for (const behaviour of ['start-null', 'start-number']) {
      await expect(open(behaviour), behaviour).rejects.toThrow(/^invalid reply: not a valid protocol-started message/)
    }
  })

  it('may take up to 10 s whatever the step timeout', async () => {
    await expect(surface(await open('slow-start', { timeoutMs: 500 }))).resolves.toEqual(FOLDED)
  })
})

describe('options', () => {
  it.each([['startTimeoutMs'], ['stopGraceMs'], ['exitWatchMs']])('a bad %s is named', async (name) => {
    await expect(startSubprocessAdapter('true', { [name]: 0 })).rejects.toThrow(`startSubprocessAdapter: ${name} needs a positive number of milliseconds, not 0`)
  })

  it('stderr is kept to its last 64 KiB', async () => {
    const adapter = await open('stderr-flood')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    expect(adapter.stderr!().length).toBeLessThanOrEqual(64 * 1024)
  })
})

describe('close()', () => {
  it('makes a later step fail at once, starting no process', async () => {
    const adapter = await open('hang')
    await adapter.close!()
    await expect(surface(adapter)).rejects.toThrow(/^the adapter was closed$/)
    expect(adapter.stderr!()).not.toContain('restarting the adapter')
  })

  it('during a restart stops the restarted process and fails the step', async () => {
    const adapter = await open('hang', { timeoutMs: 300 })
    await expect(surface(adapter)).rejects.toThrow(/^timeout:/)
    const restarting = surface(adapter)
    await adapter.close!()
    await expect(restarting).rejects.toThrow(/^the adapter was closed$/)
  })

  it('with a step in flight fails that step, naming the close', async () => {
    const adapter = await open('hang', { timeoutMs: 5000 })
    const inFlight = surface(adapter)
    await adapter.close!()
    await expect(inFlight).rejects.toThrow(/^the adapter was closed while surface was in flight; at request seq 0 \(surface\)$/)
  })

  it('after the process failed has nothing to stop, and resolves', async () => {
    const adapter = await open('hang', { timeoutMs: 300 })
    await expect(surface(adapter)).rejects.toThrow(/^timeout:/)
    await expect(adapter.close!()).resolves.toBeUndefined()
  })
})

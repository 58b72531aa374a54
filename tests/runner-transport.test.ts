// The transport under the subprocess adapter (conformance/adapter-process.ts, subprocess-adapter.ts):
// bytes become lines in linear time and must be UTF-8; one request at a time; a reply too deep to
// check, an exit while idle, a line or an exit status after the last reply are each reported with a
// reason of their kind (spec/adapter-protocol.md, Failures), never passed over or blamed on a step.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import type { Adapter } from '../conformance/adapter.ts'
import { AdapterFailure, AdapterProcess, decodeLine, illFormedAt, LineAssembler, MAX_TIMEOUT_MS, stderrHeadline, TextTail } from '../conformance/adapter-process.ts'
import { runAdapter, stderrTailOf } from '../conformance/adapter-runs.ts'
import { parseOptions } from '../conformance/cli-options.ts'
import { adapterSummary } from '../conformance/console-summary.ts'
import { protocolViolation, runMessage, startMessage } from '../conformance/protocol.ts'
import { runFails } from '../conformance/results.ts'
import { startDifference, startSubprocessAdapter, type SubprocessOptions } from '../conformance/subprocess-adapter.ts'
import { projectRoot, type VectorCase } from '../conformance/vector-cases.ts'
import type { ProtocolStarted } from '../generated/types/protocol-started.ts'
import { user } from './reference/helpers.ts'

const execute = promisify(execFile)
const fake = (behaviour: string): string => `node tests/fakes/fake-adapter.mjs ${behaviour}`
const SHORT_TIMEOUT_MS = 300
const INPUT = { events: [user(0), user(1)] }
const FOLDED = { ok: true, value: { nodes: [0, 1], replacements: [], generation: 0 } }
const RESTART_MARK = 'restarting the adapter'

const opened: Adapter[] = []
const processes: AdapterProcess[] = []
afterAll(async () => {
  for (const child of processes) child.kill()
  await Promise.all(opened.map((adapter) => adapter.close?.().catch(() => undefined)))
})

async function open(behaviour: string, options: SubprocessOptions = {}): Promise<Adapter> {
  const adapter = await startSubprocessAdapter(fake(behaviour), { cwd: projectRoot, timeoutMs: SHORT_TIMEOUT_MS, ...options })
  opened.push(adapter)
  return adapter
}

const surface = (adapter: Adapter): Promise<unknown> => Promise.resolve(adapter.operations.surface!(INPUT, { caseId: 'transport', step: 0 }))

/** An AdapterProcess that has answered start. */
async function startedProcess(behaviour: string): Promise<AdapterProcess> {
  const child = new AdapterProcess(fake(behaviour), { cwd: projectRoot, stderr: new TextTail(1000) })
  processes.push(child)
  await child.request(startMessage(), 10_000, 'start')
  return child
}

const request = (child: AdapterProcess, seq: number, timeoutMs = SHORT_TIMEOUT_MS): Promise<string> =>
  child.request(runMessage(seq, 'surface', INPUT), timeoutMs, `seq ${seq}`)

function isAlive(pid: number): boolean {
  try {
    return process.kill(pid, 0)
  } catch {
    return false
  }
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8')
const texts = (lines: readonly Buffer[]): string[] => lines.map((line) => line.toString('utf8'))

describe('an adapter error', () => {
  it('is the error of its step, with the start of its message and the end of its traceback, where the cause is', async () => {
    const adapter = await open('long-error')
    const failure = await surface(adapter).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(AdapterFailure)
    const reason = (failure as AdapterFailure).message
    expect(reason).toMatch(/^adapter error: m{1000}… \(99004 more characters\)\n\(\d+ characters before\) …/)
    expect(reason.endsWith('  frame\nValueError: the cause')).toBe(true)
    expect(reason.length).toBeLessThan(6000)
  })
})

describe('lines', () => {
  it('are cut at line feeds however the chunks fall, and an unfinished line waits for its end', () => {
    const assembler = new LineAssembler()
    expect(texts(assembler.push(bytes('ab')).lines)).toEqual([])
    expect(texts(assembler.push(bytes('c\nde\n\nf')).lines)).toEqual(['abc', 'de', ''])
    expect(texts(assembler.push(bytes('g\n')).lines)).toEqual(['fg'])
  })

  it('longer than the limit are refused, whether they are complete or not', () => {
    expect(new LineAssembler(4).push(bytes('abcde'))).toEqual({ lines: [], overlong: true })
    const complete = new LineAssembler(4).push(bytes('ab\nabcde\nx\n'))
    expect(texts(complete.lines)).toEqual(['ab'])
    expect(complete.overlong).toBe(true)
    expect(new LineAssembler(4).push(bytes('abcd\n')).overlong).toBe(false)
  })

  it('are decoded as UTF-8 without replacement: an ill-formed one is refused', () => {
    expect(decodeLine(bytes('{"text":"é"}\r'))).toBe('{"text":"é"}')
    expect(decodeLine(bytes('\uFEFF{}'))).toBe('\uFEFF{}')
    expect(decodeLine(Buffer.from([0x61, 0xff, 0x62]))).toBeUndefined()
    expect(decodeLine(Buffer.from([0x61, 0xe2, 0x82]))).toBeUndefined()
    // A surrogate encoded as UTF-8 (CESU-8) is not UTF-8.
    expect(decodeLine(Buffer.from([0xed, 0xa0, 0x80]))).toBeUndefined()
    expect(illFormedAt(Buffer.from([0x61, 0x62, 0x63, 0x64, 0xff, 0x65]))).toBe('at byte 4: 62 63 64 ff')
    expect(illFormedAt(Buffer.from([0x61, 0xe2, 0x82, 0x63]))).toBe('at byte 3: 61 e2 82 63')
    expect(illFormedAt(Buffer.from([0x61, 0xe2, 0x82]))).toBe('it ends inside a character: 61 e2 82')
  })

  it('keep count of the bytes of a line not ended yet, and give the first of them, for a timeout or a crash to show', () => {
    const assembler = new LineAssembler()
    expect(assembler.unterminated(2)).toBeUndefined()
    assembler.push(bytes('ab\ncd'))
    assembler.push(bytes('efg'))
    const begun = assembler.unterminated(3)
    expect([begun?.bytes, begun?.head.toString('utf8')]).toEqual([5, 'cde'])
    expect(assembler.unterminated(10)?.head.toString('utf8')).toBe('cdefg')
    assembler.push(bytes('\n'))
    expect(assembler.unterminated(10)).toBeUndefined()
  })
})

describe('replies', () => {
  it('a number the protocol tags, written bare anywhere in a reply, is named by its JSON Pointer; tagged numbers are fine', () => {
    const reply = (value: unknown) => ({ seq: 0, result: { ok: true, value } })
    expect(protocolViolation('result', reply({ nodes: [1, 2, -0] }))).toMatch(/^not a valid protocol-result message: \/result\/value\/nodes\/2 is the number -0, which the protocol writes \{"\$dsh":"-0"\}$/)
    expect(protocolViolation('result', reply([{ 'a/b': { c: [Number.NEGATIVE_INFINITY] } }]))).toMatch(/: \/result\/value\/0\/a~1b\/c\/0 is the number -Infinity, /)
    expect(protocolViolation('result', reply({ nodes: [1, 2, { $dsh: '-0' }], big: 1e300, none: null }))).toBeUndefined()
  })

  it('a reply that is not well-formed UTF-8 is garbage, not text with U+FFFD in it', async () => {
    const adapter = await open('ill-formed-utf8')
    await expect(surface(adapter)).rejects.toThrow(/^garbage: the adapter wrote a line that is not well-formed UTF-8 \(at byte 39: 3a 22 61 ff\): "\{\\"seq\\":0,/)
  })

  it('a reply with no line feed after it is no reply: the timeout shows the bytes written', async () => {
    const adapter = await open('no-line-feed')
    await expect(surface(adapter)).rejects.toThrow(/^timeout: no reply to request seq 0 \(surface, transport step 0\) within 300 ms; by then it had written \d+ bytes of a line with no line feed yet \(a reply still being written, or one written without its line feed\): "\{\\"seq\\":0,\\"result\\":/)
  })

  it('a line nobody asked for in the same write as a reply makes that step the error, and the next step runs in a new process', async () => {
    const adapter = await open('duplicate-in-one-write')
    await expect(surface(adapter)).rejects.toThrow(/^garbage: the adapter wrote a line nobody asked for: "\{\\"seq\\":0,.*" \(with the reply\); at request seq 0 \(surface, transport step 0\)$/)
    // Each process does the same, so the next step errs alike, at its own seq, not before it was sent.
    await expect(surface(adapter)).rejects.toThrow(/\(with the reply\); at request seq 1 \(surface, transport step 0\)$/)
    expect(adapter.stderr!()).toContain(RESTART_MARK)
  })

  it('a line nobody asked for in a write of its own right after the reply makes that step the error too', async () => {
    // The runner reads what arrives within the turn of the event loop after the reply. The two writes
    // almost always come in one read; on a loaded machine the second can come a turn later, and is then
    // read as the next step's reply, an invalid one (spec/adapter-protocol.md). So: the line is always
    // reported, in one step or the next. (With the reply in one read, it is named "(with the reply)":
    // the same-write test above pins that wording, which timing cannot take away there.)
    const errorOf = (step: Promise<unknown>): Promise<string | undefined> => step.then(() => undefined, (error: Error) => error.message)
    const reported: string[] = []
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const adapter = await open('two-writes')
      reported.push((await errorOf(surface(adapter))) ?? (await errorOf(surface(adapter))) ?? 'not reported')
    }
    for (const message of reported) expect(message).toContain('"{\\"extra\\":1}"')
  })

  it('the start of a line after the reply, when nothing is due, makes that step the error', async () => {
    const adapter = await open('begun-line')
    await expect(surface(adapter)).rejects.toThrow(/^garbage: no reply was due; it wrote 4 bytes with no line feed after them, which end no message: "junk" \(with the reply\); at request seq 0 \(surface, transport step 0\)$/)
  })

  it('a line nobody asked for with the start reply fails the step before it is sent, and fails each restart, which then stop', async () => {
    const adapter = await open('start-twice')
    await expect(surface(adapter)).rejects.toThrow(/^garbage: the adapter wrote a line nobody asked for: "\{\\"protocol\\":1,.*" \(while idle after its start reply, before this step was sent\)$/)
    for (let restart = 0; restart < 3; restart += 1) await expect(surface(adapter)).rejects.toThrow(/^garbage: the adapter wrote a line nobody asked for: "\{\\"protocol\\":1,.*" \(while restarting the adapter\)$/)
    await expect(surface(adapter)).rejects.toThrow(/^garbage: not sent, since the adapter's last 3 restarts failed and it is not restarted any more \(the last: the adapter wrote a line nobody asked for: "\{\\"protocol\\":1,.*"\)$/)
  })

  it('a 16 MiB reply is read within the default timeout (line assembly is linear)', async () => {
    const adapter = await open('huge-reply', { timeoutMs: undefined })
    const started = performance.now()
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it('a reply nested deeper than the runner can check is an invalid reply in one line, not an exception of the runner', async () => {
    const adapter = await open('deep-reply')
    const failure = await surface(adapter).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(AdapterFailure)
    expect((failure as Error).message).toBe('invalid reply: the reply is nested too deeply to check (write deep chains of one-element arrays as the nested tag); at request seq 0 (surface, transport step 0)')
  })
})

describe('one request at a time', () => {
  it('a request while another waits for its reply is refused, and the one in flight keeps its own timeout', async () => {
    const child = await startedProcess('hang')
    const first = request(child, 0).catch((error: Error) => error.message)
    await expect(request(child, 1)).rejects.toThrow(/^not sent: seq 1 came while seq 0 was waiting for its reply/)
    expect(await first).toBe(`timeout: no reply to seq 0 within ${SHORT_TIMEOUT_MS} ms (an adapter must flush its stdout after each reply)`)
  })

  it('a step while another is in flight fails at once, and only one process is restarted', async () => {
    const adapter = await open('hang')
    await expect(surface(adapter)).rejects.toThrow(/^timeout: /)
    // The next two steps come together: the first restarts the process, the second must not.
    const [restarted, second] = await Promise.all([surface(adapter).catch((error: Error) => error.message), surface(adapter).catch((error: Error) => error.message)])
    expect(restarted).toMatch(/^timeout: no reply to request seq 1 /)
    expect(second).toMatch(/^not sent: surface, transport step 0 came while surface, transport step 0 was in flight/)
    expect(adapter.stderr!().split(RESTART_MARK)).toHaveLength(2)
  })
})

describe('what a crash reason quotes of stderr', () => {
  it('quotes the last three lines that are not stack frames: the error a traceback ends with', () => {
    const node = ['/a/crash.js:2', "throw new Error('no lib')", '^', '', 'Error: no lib', '    at Object.<anonymous> (/a/crash.js:2:7)', '    at Module._compile (node:internal/modules/cjs/loader:1554:14)', '', 'Node.js v20.20.2'].join('\n')
    expect(stderrHeadline(node)).toBe(JSON.stringify("/a/crash.js:2 | throw new Error('no lib') | Error: no lib"))
    const python = ['Traceback (most recent call last):', '  File "adapter.py", line 9, in <module>', '    main()', '  File "adapter.py", line 5, in main', '    raise ValueError("bad input")', 'ValueError: bad input'].join('\n')
    expect(stderrHeadline(python)).toBe(JSON.stringify('main() | raise ValueError("bad input") | ValueError: bad input'))
    // Python 3.11 marks the code at fault under it; the marks are no more telling than a frame.
    const marked = ['Traceback (most recent call last):', '  File "adapter.py", line 9, in <module>', '    main()', '  File "adapter.py", line 5, in main', '    return table[key] + 1', '           ~~~~~^^^^^', "KeyError: 'surface'"].join('\n')
    expect(stderrHeadline(marked)).toBe(JSON.stringify("main() | return table[key] + 1 | KeyError: 'surface'"))
    // Python's header line is no more telling than a frame.
    const missingModule = ['Traceback (most recent call last):', '  File "adapter.py", line 2, in <module>', '    import sessionlog', "ModuleNotFoundError: No module named 'sessionlog'"].join('\n')
    expect(stderrHeadline(missingModule)).toBe(JSON.stringify("import sessionlog | ModuleNotFoundError: No module named 'sessionlog'"))
  })

  it('quotes the error line of a Node system error, whose members Node prints below the frames', () => {
    const enoent = ['node:fs:573', '  return binding.open(', '                 ^', '', "Error: ENOENT: no such file or directory, open '/nope/config.json'",
      '    at Object.openSync (node:fs:573:18)', '    at node:internal/main/run_main_module:28:49 {', '  errno: -2,', "  code: 'ENOENT',", "  syscall: 'open',",
      "  path: '/nope/config.json'", '}', '', 'Node.js v20.20.2'].join('\n')
    expect(stderrHeadline(enoent)).toBe(JSON.stringify("node:fs:573 | return binding.open( | Error: ENOENT: no such file or directory, open '/nope/config.json'"))
  })

  it('keeps a line that starts with "at" but is no frame, and quotes the last three lines when none names an error', () => {
    expect(stderrHeadline('config read\nat least one profile is needed\nbye\n')).toBe(JSON.stringify('config read | at least one profile is needed | bye'))
  })

  it('quotes the last three lines when every line is a frame, and nothing when there is none', () => {
    expect(stderrHeadline('at a (x.js:1:2)\nat b (x.js:3:4)\nat x.js:5:6\nat new Promise (<anonymous>)\n')).toBe(JSON.stringify('at b (x.js:3:4) | at x.js:5:6 | at new Promise (<anonymous>)'))
    expect(stderrHeadline(' \n\n')).toBeUndefined()
  })

  it('keeps the end of a long quote, where the error is, and never starts inside a surrogate pair', () => {
    const long = `${'x'.repeat(300)} | Error: the end`
    const quoted = JSON.parse(stderrHeadline(long)!) as string
    expect(quoted).toBe(`(${long.length - 160} characters before) …${long.slice(-160)}`)
    // A pair at the cut: the cut moves past its low half, so the quote starts on whole characters, and
    // the pair left out counts as one character.
    const paired = `${'y'.repeat(100)}😀${'z'.repeat(159)}`
    expect(JSON.parse(stderrHeadline(paired)!)).toBe(`(101 characters before) …${'z'.repeat(159)}`)
  })
})

describe('a process that ends while idle', () => {
  it('fails a request at once, once its exit is known, without writing it', async () => {
    const child = await startedProcess('exit-after-reply')
    await request(child, 0)
    await child.exited
    const outcome = await Promise.race([request(child, 1).catch((error: Error) => error.message), sleep(50).then(() => 'still waiting')])
    expect(outcome).toMatch(/^crash: the adapter process ended \(exit code 0\)/)
  })

  it('is reported on the next step as ended before that step was sent', async () => {
    const adapter = await open('exit-after-reply')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await sleep(500)
    await expect(surface(adapter)).rejects.toThrow(/^crash: the adapter process ended \(exit code 0\) \(while idle after its reply to request seq 0 \(surface, transport step 0\), before this step was sent\)$/)
  })
})

describe('a restarted process', () => {
  it('that declares something else is an invalid reply showing the member as it was and as it is', async () => {
    const adapter = await open('restart-differs')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(surface(adapter)).rejects.toThrow(/^crash: the adapter process ended \(exit code 3\).*; at request seq 1 \(surface, transport step 0\), sent after its reply to request seq 0 \(surface, transport step 0\)$/)
    const failure = await surface(adapter).catch((error: Error) => error.message)
    expect(failure).toMatch(/^invalid reply: the restarted adapter's start reply differs from the first one: implementation was "\{.*\\"version\\":\\"0\.0\.(\d+)\\".*\}", is "\{.*\\"version\\":\\"0\.0\.(?!\1\\")\d+\\".*\}" \(while restarting the adapter\)$/)
  })

  it('may list its profiles and operations in another order, but not another set of them', () => {
    const implementation = { name: 'x', version: '1', language: 'go' }
    const first: ProtocolStarted = { protocol: 1, implementation, profiles: ['reader', 'writer'], operations: ['load', 'surface', 'append'] }
    expect(startDifference(first, { ...first, profiles: ['writer', 'reader'], operations: ['surface', 'append', 'load'] })).toBeUndefined()
    expect(startDifference(first, { ...first, operations: ['surface', 'load'] })).toBe('operations was "[\\"append\\",\\"load\\",\\"surface\\"]", is "[\\"load\\",\\"surface\\"]"')
  })

  it('after three restarts in a row that fail, every step fails at once, not sent', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'dsh-restarts-')), 'started')
    const adapter = await open(`first-start-only ${marker}`)
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(surface(adapter)).rejects.toThrow(/^crash: /)
    for (let restart = 0; restart < 3; restart += 1) await expect(surface(adapter)).rejects.toThrow(/\(while restarting the adapter\)$/)
    await expect(surface(adapter)).rejects.toThrow(/^crash: not sent, since the adapter's last 3 restarts failed and it is not restarted any more \(the last: the adapter process ended \(exit code 4\)/)
    rmSync(dirname(marker), { recursive: true, force: true })
  })
})

describe('after the last reply', () => {
  it('an adapter that exits 0 on stop closes quietly', async () => {
    const adapter = await open('misorder')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).resolves.toBeUndefined()
  })

  it('an adapter behind a pipe (tee) ends on stop too: the runner closes stdin after it', async () => {
    const adapter = await startSubprocessAdapter(`tee /dev/null | ${fake('misorder')}`, { cwd: projectRoot, timeoutMs: SHORT_TIMEOUT_MS, stopGraceMs: 1000 })
    opened.push(adapter)
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).resolves.toBeUndefined()
  })

  it('a line when no reply is due is garbage, reported by close()', async () => {
    const adapter = await open('duplicate')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).rejects.toThrow(/^garbage: the adapter wrote a line nobody asked for: "\{\\"seq\\":0,/)
  })

  it('the start of a line written on stop is garbage, reported by close()', async () => {
    const adapter = await open('begun-on-stop')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).rejects.toThrow(/^garbage: no reply was due; it wrote 4 bytes with no line feed after them, which end no message: "junk"$/)
  })

  it('an exit status other than 0 on stop is a crash, reported by close()', async () => {
    const adapter = await open('exit-3-on-stop')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).rejects.toThrow(/^crash: the adapter ended with exit code 3 on stop; it must exit with status 0$/)
  })

  it('no exit within the grace time of stop is a timeout, reported by close()', async () => {
    const adapter = await open('ignore-stop', { stopGraceMs: 200 })
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).rejects.toThrow(/^timeout: the adapter did not exit within 200 ms of stop$/)
  })

  it('an exit before stop is a crash, reported by close()', async () => {
    const adapter = await open('exit-after-reply')
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await sleep(500)
    await expect(adapter.close!()).rejects.toThrow(/^crash: the adapter process ended \(exit code 0\) \(while idle after its reply to request seq 0 \(surface, transport step 0\), before stop\)$/)
  })

  it('an exit of its own right after the last reply is a crash too, though stop follows at once', async () => {
    // A watch long enough for a busy machine; the default is a tenth of a second.
    const adapter = await open('exit-after-reply', { exitWatchMs: 2000 })
    await expect(surface(adapter)).resolves.toEqual(FOLDED)
    await expect(adapter.close!()).rejects.toThrow(/^crash: the adapter process ended \(exit code 0\) \(while idle after its reply to request seq 0 \(surface, transport step 0\), before stop\)$/)
  })

  it('fails the run of that adapter, whose summary names what it did', async () => {
    const vector: VectorCase = {
      id: 'transport-appends', title: 'two appends', file: 'tests/runner-transport.test.ts', chapter: '05-surface', requirements: ['SURF-6'], profile: 'reader', review: false,
      steps: [{ operation: 'surface', input: INPUT, expect: { value: FOLDED.value } }],
    }
    const adapterRun = await runAdapter({ kind: 'command', command: fake('duplicate') }, [vector], SHORT_TIMEOUT_MS)
    expect(adapterRun.outcomes.map((outcome) => outcome.status)).toEqual(['pass'])
    expect(adapterRun.stopError).toMatch(/^garbage: the adapter wrote a line nobody asked for/)
    expect(runFails(adapterRun, false)).toBe(true)
    expect(adapterSummary(adapterRun, [vector])).toMatch(/^fake-duplicate 0\.0\.0 .*\n(.*\n)*  ERROR after the last case: the adapter broke the protocol: garbage: the adapter wrote a line nobody asked for/)
  })

  it('a helper that left the process group does not keep the runner alive', async () => {
    const script = [
      "import { startSubprocessAdapter } from './conformance/subprocess-adapter.ts'",
      `const adapter = await startSubprocessAdapter(${JSON.stringify(fake('daemon'))})`,
      `await adapter.operations.surface(${JSON.stringify(INPUT)})`,
      'await adapter.close()',
      'console.log(adapter.stderr())',
    ].join('\n')
    const started = performance.now()
    const result = await execute('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, timeout: 15_000 }).catch((error: { stdout: string }) => error)
    const helper = Number(/helper pid (\d+)/.exec(result.stdout)?.[1])
    // The helper sleeps 30 s; the runner must not wait for it.
    const helperAlive = Number.isInteger(helper) && isAlive(helper)
    if (helperAlive) process.kill(helper, 'SIGKILL')
    expect(helperAlive).toBe(true)
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})

describe('timeouts', () => {
  it('longer than a Node timer can wait are refused, on the command line and by startSubprocessAdapter', async () => {
    expect(parseOptions('run', ['--timeout', String(MAX_TIMEOUT_MS + 1)])).toEqual({ error: '--timeout can be at most 2147483647 ms (about 24.8 days, the longest a timer can wait), not 2147483648' })
    expect(parseOptions('run', ['--timeout', String(MAX_TIMEOUT_MS)])).toMatchObject({ timeoutMs: MAX_TIMEOUT_MS })
    expect(parseOptions('run', ['--timeout', '1.5'])).toEqual({ error: '--timeout needs a positive number of milliseconds, not 1.5' })
    expect(parseOptions('run', ['--timeout', '0x10'])).toEqual({ error: '--timeout needs a positive number of milliseconds, not 0x10' })
    await expect(startSubprocessAdapter(fake('misorder'), { cwd: projectRoot, timeoutMs: 2 ** 31 })).rejects.toThrow(/^startSubprocessAdapter: timeoutMs can be at most 2147483647 ms/)
  })
})

describe('the stderr tail of a failed run', () => {
  it('says so when its lines are only the runner\'s restart notes, and not when the adapter wrote any', () => {
    const note = '[dsh-conformance: restarting the adapter]'
    expect(stderrTailOf(`\n${note}\n\n${note}\n`)).toBe(`\n${note}\n\n${note}\n[dsh-conformance: the adapter wrote nothing to stderr in these lines]`)
    expect(stderrTailOf(`Traceback: boom\n${note}\n`)).toBe(`Traceback: boom\n${note}`)
    expect(stderrTailOf('')).toBe('')
  })
})

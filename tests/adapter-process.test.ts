// The process under the subprocess adapter (conformance/adapter-process.ts): its helpers, how it fails
// (a command that cannot run, a closed stdin or stdout, a signal, an endless line), and that the
// adapter's whole process group dies with it, when the runner exits or is stopped. Written by the
// mutation audit of the runner's verdict code (CHANGELOG, 2026-12-06): each test pins a change of the
// code that survived every other test.
import { spawn, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { AdapterFailure, AdapterProcess, illFormedAt, LineAssembler, settledWithin, stderrHeadline, TextTail, timeoutProblem } from '../conformance/adapter-process.ts'
import { startSubprocessAdapter } from '../conformance/subprocess-adapter.ts'
import { projectRoot } from '../conformance/vector-cases.ts'

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
async function until(done: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  return done()
}
/** An AdapterProcess of a shell `script`, and the stderr it writes. */
function shell(script: string): { child: AdapterProcess; stderr: TextTail } {
  const stderr = new TextTail(10_000)
  return { child: new AdapterProcess(script, { cwd: projectRoot, stderr }), stderr }
}

describe('adapter-process helpers', () => {
  it('an AdapterFailure is named so in its stack, which holds no runner frames', () => {
    const failure = new AdapterFailure('crash: x')
    expect(failure.name).toBe('AdapterFailure')
    expect(failure.stack).toBe('AdapterFailure: crash: x')
  })

  it('a text tail keeps only its last characters', () => {
    const tail = new TextTail(3)
    tail.append('abcd')
    tail.append('ef')
    expect(tail.toString()).toBe('def')
  })

  it('a timeout of 0 ms is refused, as a negative one is', () => {
    expect(timeoutProblem('timeoutMs', 0)).toBe('timeoutMs needs a positive number of milliseconds, not 0')
    expect(timeoutProblem('timeoutMs', -5)).toBe('timeoutMs needs a positive number of milliseconds, not -5')
  })

  it('a begun line of exactly the most bytes is not overlong yet', () => {
    const lines = new LineAssembler(4)
    expect(lines.push(Buffer.from('abcd'))).toEqual({ lines: [], overlong: false })
    expect(lines.push(Buffer.from('\n'))).toEqual({ lines: [Buffer.from('abcd')], overlong: false })
  })

  it('shows each byte around an ill-formed one as two hex digits', () => {
    expect(illFormedAt(Buffer.from([0x01, 0x02, 0xff]))).toBe('at byte 2: 01 02 ff')
  })

  it('clears its timer once the work settles, so it keeps nothing alive', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    const before = timers()
    await expect(settledWithin(Promise.resolve(1), 60_000, 'never')).resolves.toBe(1)
    expect(timers()).toBe(before)
  })
})

describe('the exit hook', () => {
  it('kills the adapter\'s process group when the runner exits', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/fakes/runner-with-adapter.ts', 'exit'], { cwd: projectRoot, encoding: 'utf8', timeout: 30_000 })
    expect(child.status, child.stderr).toBe(0)
    const pid = Number(child.stdout.trim())
    expect(pid).toBeGreaterThan(0)
    // SIGKILL is sent as the runner exits; give the kernel a moment to reap the process.
    const deadline = Date.now() + 2000
    while (isAlive(pid) && Date.now() < deadline) spawnSync('sleep', ['0.05'])
    const alive = isAlive(pid)
    if (alive) process.kill(pid, 'SIGKILL')
    expect(alive).toBe(false)
  })
})

describe('AdapterProcess', () => {
  it('a command that cannot be run (its directory is missing) is a crash naming why', async () => {
    const child = new AdapterProcess('true', { cwd: '/no/such/directory', stderr: new TextTail(100) })
    await child.exited
    expect(child.failure).toMatch(/^crash: the adapter could not be run \(spawn \/bin\/sh ENOENT\)$/)
  })

  it('keeps the first failure reason', async () => {
    const { child } = shell('exec sleep 5')
    child.fail('timeout: first')
    child.fail('crash: second')
    expect(child.failure).toBe('timeout: first')
  })

  it('kills the whole process group, not only the shell', async () => {
    // The shell and its child ignore SIGTERM: only SIGKILL ends them.
    const { child, stderr } = shell('trap "" TERM; sleep 30 & echo "pid $!" >&2; wait')
    expect(await until(() => /pid \d+/.test(stderr.toString()))).toBe(true)
    const pid = Number(/pid (\d+)/.exec(stderr.toString())![1])
    child.fail('timeout: test')
    const gone = await until(() => !isAlive(pid))
    if (!gone) process.kill(pid, 'SIGKILL')
    expect(gone).toBe(true)
  })

  it('a write to an adapter that closed its stdin is a crash of the step, not an exception of the runner', async () => {
    const { child, stderr } = shell('exec 0<&-; echo closed >&2; exec sleep 5')
    expect(await until(() => stderr.toString().includes('closed'))).toBe(true)
    await expect(child.request({ cmd: 'start', protocol: 1 }, 3000, 'start')).rejects.toThrow(/^crash: writing to the adapter failed \(write EPIPE\)/)
    child.kill()
  })

  it('an adapter that closes its stdout and keeps running is a crash saying so', async () => {
    const { child } = shell('exec 1>&-; exec sleep 5')
    expect(await until(() => child.failure !== undefined)).toBe(true)
    expect(child.failure).toBe('crash: the adapter closed its stdout')
    child.kill()
  })

  it('an adapter killed by a signal is a crash naming the signal', async () => {
    const { child } = shell('kill -TERM $$')
    expect(await until(() => child.failure !== undefined)).toBe(true)
    expect(child.failure).toBe('crash: the adapter process ended (signal SIGTERM)')
  })

  it('a line longer than 256 MiB is garbage, not a wait for its end', async () => {
    const adapter = await startSubprocessAdapter('node tests/fakes/fake-adapter.mjs endless-line', { cwd: projectRoot, timeoutMs: 15_000 })
    await expect(Promise.resolve(adapter.operations.surface!({ events: [] }))).rejects.toThrow(/^garbage: the adapter wrote a line longer than 268435456 bytes \(256 MiB\)/)
    await adapter.close!().catch(() => undefined)
  }, 30_000)

  it('installs its exit hook once, however many processes it starts', () => {
    const before = process.listeners('exit').length
    const children = Array.from({ length: 3 }, () => shell('exec sleep 5').child)
    expect(process.listeners('exit').length - before).toBeLessThanOrEqual(1)
    for (const child of children) child.kill()
  })

  it('handles the signals that stop the runner only while an adapter process runs', () => {
    // Installed for good, they kept Ctrl-C from stopping an in-process adapter stuck in a loop after a
    // subprocess adapter had run: the watchdog's SIGKILL at twice --timeout ended it instead.
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/fakes/runner-with-adapter.ts', 'listeners'], { cwd: projectRoot, encoding: 'utf8' })
    expect(JSON.parse(run.stdout)).toEqual({ before: [0, 0, 0, 0], during: [1, 1, 1, 1], after: [0, 0, 0, 0] })
  })

  it.each(['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)('kills the adapter\'s process group when the runner is stopped by %s', async (signal) => {
    // SIGHUP: the terminal closed, an ssh session dropped; SIGQUIT: Ctrl-\; the adapter, in a session
    // of its own, once lived on after either.
    const runner = spawn(process.execPath, ['--import', 'tsx', 'tests/fakes/runner-with-adapter.ts', 'wait'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    runner.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
    expect(await until(() => /\d+\n/.test(out), 20_000)).toBe(true)
    const pid = Number(out.trim())
    runner.kill(signal)
    const gone = await until(() => !isAlive(pid))
    if (!gone) process.kill(pid, 'SIGKILL')
    runner.kill('SIGKILL')
    expect(gone).toBe(true)
  }, 30_000)

  it('clears the progress line when a signal stops the runner, so the shell\'s prompt does not land after it', async () => {
    const runner = spawn(process.execPath, ['--import', 'tsx', 'tests/fakes/runner-with-adapter.ts', 'wait-drawn'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    runner.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
    runner.stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk })
    const exited = new Promise<NodeJS.Signals | null>((resolve) => runner.on('exit', (_code, signal) => resolve(signal)))
    expect(await until(() => /\d+\n/.test(out), 20_000)).toBe(true)
    runner.kill('SIGINT')
    expect(await exited).toBe('SIGINT')
    expect(err).toBe('\r\x1b[Krunner: 1/2\r\x1b[K')
  }, 30_000)
})

describe('what the stderr headline quotes', () => {
  it.each([
    // Only a whole line that is a stack frame is left out.
    ['starting\nValueError: bad value at offset 12:4', '"starting | ValueError: bad value at offset 12:4"'],
    ['starting\nat step:1 the value broke', '"starting | at step:1 the value broke"'],
    // A frame is left out whatever its function name and line number.
    ['starting\nat f (/x/y.js:1:2)', '"starting"'],
    ['starting\nat f (x.js:12)', '"starting"'],
    // The Traceback header and Node's version line, and only they.
    ['starting\nTraceback (most recent call last): x', '"starting | Traceback (most recent call last): x"'],
    ['starting\nNode.js v20.19.0', '"starting"'],
    // Markers under code are lines of ~ and ^ only.
    ['starting\n~/project not found', '"starting | ~/project not found"'],
    // An error line starts with the error's name.
    ['ValueError: a\nsee the Error above', '"ValueError: a"'],
    ['ValueError: a\nnext', '"ValueError: a"'],
  ])('of %j is %s', (stderr, headline) => {
    expect(stderrHeadline(stderr)).toBe(headline)
  })
})

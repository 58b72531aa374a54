// For tests/adapter-process.test.ts: a runner that starts an adapter process (a shell that sleeps, in a
// process group of its own), prints the pid the shell writes to stderr, and then `exit`s at once or
// `wait`s for a signal: the runner's exit or signal hook must kill the adapter's group either way.
// `listeners` prints how many listeners SIGINT, SIGTERM, SIGHUP and SIGQUIT have before the adapter
// process starts, while it runs and once it is killed, as JSON. `wait-drawn` waits as `wait` does, a
// progress line drawn on a stderr it takes for a terminal. Run with
// `node --import tsx tests/fakes/runner-with-adapter.ts exit|wait|wait-drawn|listeners`.
import { AdapterProcess, TextTail } from '../../conformance/adapter-process.ts'
import { progressLine } from '../../conformance/progress-line.ts'

const stderr = new TextTail(1000)
if (process.argv[2] === 'listeners') {
  const listening = (): number[] => (['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const).map(signal => process.listenerCount(signal))
  const before = listening()
  const adapter = new AdapterProcess('exec sleep 30', { stderr })
  const during = listening()
  adapter.kill()
  process.stdout.write(`${JSON.stringify({ before, during, after: listening() })}\n`)
  process.exit(0)
}
if (process.argv[2] === 'wait-drawn') {
  Object.defineProperty(process.stderr, 'isTTY', { value: true })
  progressLine().draw('runner: 1/2', false)
}
new AdapterProcess('echo "pid $$" >&2; exec sleep 30', { stderr })
const started = Date.now()
while (!/pid \d+/.test(stderr.toString())) {
  if (Date.now() - started > 10_000) throw new Error('the adapter wrote no pid within 10 s')
  await new Promise((resolve) => setTimeout(resolve, 20))
}
process.stdout.write(`${/pid (\d+)/.exec(stderr.toString())![1]}\n`)
if (process.argv[2] === 'exit') process.exit(0)
setInterval(() => {}, 1000)

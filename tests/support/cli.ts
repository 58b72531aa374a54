// The dsh-conformance CLI, run as a child process from the project's root or from a copy of it, or
// its commands run in this process with their output captured. The child process is for what the
// process itself does (its end, a pipe closed early, the environment an adapter reads at import); the
// tests of what a command prints and returns run in this process, where a mutation run can see them.
import { execFile } from 'node:child_process'
import { format, promisify } from 'node:util'
import { vi } from 'vitest'
import { runCliCommand } from '../../conformance/cli-dispatch.ts'
import { projectRoot } from '../../conformance/vector-cases.ts'

const execute = promisify(execFile)

/** The CLI's entry point under tsx, as `node` runs it. */
export const CLI = ['node_modules/tsx/dist/cli.mjs', 'conformance/cli.ts']

export interface CliOutcome {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs the CLI with `args` (and `env` over this process's environment) from the project at `root`; a
 * non-zero exit is returned, not thrown.
 */
export async function runCli(args: readonly string[], env: Record<string, string> = {}, root = projectRoot): Promise<CliOutcome> {
  try {
    const { stdout, stderr } = await execute('node', [...CLI, ...args], { cwd: root, env: { ...process.env, ...env } })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as CliOutcome
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** Whether a command runs in this process now: the capture is global, so one runs at a time. */
let capturing = false

/** A console method that appends its line to `sink`, formatted as the console would. */
const lineTo = (sink: string[]) => (...parts: unknown[]): void => void sink.push(`${format(...parts)}\n`)

/** A stream's write that appends its chunk to `sink`. */
const chunkTo = (sink: string[]) => (chunk: string | Uint8Array): boolean => sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')) > 0

/**
 * Runs the command `args` names in this process, from the project's root (vitest's working folder),
 * with what it writes to the console, stdout or stderr captured.
 */
export async function runCliHere(args: readonly string[]): Promise<CliOutcome> {
  if (capturing) throw new Error('runCliHere runs one command at a time')
  capturing = true
  const stdout: string[] = []
  const stderr: string[] = []
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(lineTo(stdout)),
    vi.spyOn(console, 'error').mockImplementation(lineTo(stderr)),
    vi.spyOn(process.stdout, 'write').mockImplementation(chunkTo(stdout)),
    vi.spyOn(process.stderr, 'write').mockImplementation(chunkTo(stderr)),
  ]
  try {
    const code = await runCliCommand(args)
    return { code, stdout: stdout.join(''), stderr: stderr.join('') }
  } finally {
    for (const spy of spies) spy.mockRestore()
    capturing = false
  }
}

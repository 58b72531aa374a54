// The dsh-conformance CLI run as a child process, from the project's root or from a copy of it, for the
// tests of its exit status and output.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
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

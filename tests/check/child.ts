// Runs `check` as the command line does, in a process of its own, and reports its peak RSS on
// stderr: the check tests use it where memory and exit status matter (small-logs.ts runChild).
import { runCheck } from '../../conformance/check/command.ts'

const status = runCheck(process.argv.slice(2))
process.stderr.write(`${JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`)
process.exitCode = status

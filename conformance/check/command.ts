// `dsh-conformance check PATH...`: checks stored session logs and prints the report; returns the exit
// status (see CHECK_USAGE).
import { checkFile, encodingOf, type FileReport } from './check-file.ts'
import { exitCodeOf, formatJson, formatText, summarize } from './format.ts'
import { CHECK_USAGE, parseCheckOptions } from './options.ts'
import { RequirementIndex } from './requirements.ts'
import { findArtifacts } from './walk.ts'

export function runCheck(args: readonly string[]): number {
  if (args.includes('--help')) {
    console.log(CHECK_USAGE)
    return 0
  }
  const options = parseCheckOptions(args)
  if ('error' in options) {
    console.error(`${options.error}\n\n${CHECK_USAGE}`)
    return 2
  }
  const requirements = new RequirementIndex()
  const settings = { vocabulary: options.vocabulary, maxLineBytes: options.maxLineBytes }
  const reports: FileReport[] = findArtifacts(options.paths).map(found => (found.kind === 'file'
    ? checkFile(found.path, settings, requirements)
    : {
        file: found.path,
        encoding: encodingOf(found.path),
        status: 'unchecked',
        outcome: { verdict: 'unchecked', code: 'CHECK_IO_ERROR' },
        diagnostics: [{ severity: 'error', code: 'CHECK_IO_ERROR', message: found.message }],
      }))
  const summary = summarize(reports)
  console.log(options.format === 'json' ? formatJson(reports, summary) : formatText(reports, summary))
  return exitCodeOf(summary)
}

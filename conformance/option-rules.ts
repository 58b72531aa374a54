// Rules every command's option parser shares. Kept apart from cli-options.ts, which imports the runner
// (adapters, reports, the protocol's schemas): check and audit parse numbers too and need none of it.

/**
 * The number an option's value writes in decimal digits alone, or NaN: `Number` would also read
 * `0x10`, `1e3` or ` 5 `, which no one means as a count or a time on a command line.
 */
export function decimalNumber(text: string): number {
  return /^[0-9]+$/.test(text) ? Number(text) : Number.NaN
}

/**
 * Notes `option` as given; one of `once`, the options that take a single value, given a second time is
 * a mistake, not a change of mind (a script that appends to a base command, say): the error says so.
 */
export function givenTwice(given: Set<string>, option: string, once: ReadonlySet<string>): string | undefined {
  if (!once.has(option)) return undefined
  if (given.has(option)) return `${option} is given twice`
  given.add(option)
  return undefined
}

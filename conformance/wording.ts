// Wording shared by the commands' reports for people.

/** `count` and the noun, in the singular for one: "1 event", "2 events". */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`
}

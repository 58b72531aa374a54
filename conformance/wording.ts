// Wording shared by the commands' reports for people.

/** `count` and the noun, in the singular for one: "1 event", "2 events". */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`
}

/** The most characters of a message a report prints; the rest is counted, not shown. */
export const MESSAGE_MOST = 1000

/**
 * A message for a report, its end left out past `most` characters: a reference message may quote a
 * value from the log (an event type, a member name), and a log line can be 100 MB long.
 */
export function shortened(message: string, most = MESSAGE_MOST): string {
  if (message.length <= most) return message
  // Never split a surrogate pair: end before a high surrogate whose low half would be cut off.
  const end = /[\uD800-\uDBFF]/.test(message.charAt(most - 1)) ? most - 1 : most
  return `${message.slice(0, end)}… (${plural(message.length - end, 'more character')})`
}

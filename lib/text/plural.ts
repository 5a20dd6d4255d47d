/** Counts said in words, for the CLI's lines and the notes of lib/aws alike. */

/** A count and its noun, singular for one: `plural(1, 'article')` is "1 article", `plural(2, 'retry', 'retries')` "2 retries". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

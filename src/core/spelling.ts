/** How many leading characters two strings share: the measure behind every "did you mean". */
export function commonPrefixLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

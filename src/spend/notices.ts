/** A non-fatal condition of a spend estimate: a fallback taken, data missing, a caveat of the method. */
export interface Notice {
  /** Stable code, e.g. `partial_inflation_adjustment`. */
  code: string;
  message: string;
  severity: 'info' | 'warning';
}

export const notice = (code: string, severity: Notice['severity'], message: string): Notice => ({
  code,
  message,
  severity,
});

/** Lifetimes (docs/oauth.md "Limits (summary)"), in milliseconds. */
export const LIFETIME = {
  code: 60_000,
  access: 60 * 60_000,
  /** a connection (and its refresh token) ends after this long without use */
  idle: 90 * 24 * 60 * 60_000,
  session: 12 * 60 * 60_000,
  /** last_used_at is written at most this often per connection */
  touchEvery: 60_000,
} as const;

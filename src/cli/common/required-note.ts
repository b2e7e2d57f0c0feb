/**
 * What the help says of an option a command cannot run without: commander shows a required option like any other,
 * and the first a reader heard of it was the error.
 */

/** `description` marked "(required)", unless it already says so. */
export function requiredNote(description: string): string {
  return /\brequired\b/.test(description) ? description : `${description} (required)`;
}

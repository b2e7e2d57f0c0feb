/**
 * A reply's text as its stream brings it, one piece per event. A piece is a
 * few characters (vLLM sends one token an event), and a string of its own
 * costs its header and a slot beside its characters: 800 replies of 8,000
 * one-token pieces held 64 MB of heap as pieces against 24 MB grouped, the
 * text itself being 19 MB (measured with JSON-parsed events; 44 MB against
 * 22 MB at eight tokens an event). So pieces are joined a group at a time as
 * they come, and the groups once at the end: linear, unlike joining the
 * whole text at every group.
 */

/** Pieces joined into one string at a time. */
const GROUP = 64;

export class TextPieces {
  private readonly groups: string[] = [];
  private readonly pending: string[] = [];

  push(piece: string): void {
    this.pending.push(piece);
    if (this.pending.length < GROUP) return;
    this.groups.push(this.pending.join(''));
    this.pending.length = 0;
  }

  /** The text so far. */
  text(): string {
    return this.groups.join('') + this.pending.join('');
  }
}

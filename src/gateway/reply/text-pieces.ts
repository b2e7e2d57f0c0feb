/**
 * A reply's text as its stream brings it, one piece per event. A piece is a
 * few characters (vLLM sends one token an event), and a string of its own
 * costs its header and a slot beside its characters, so one-token pieces held
 * several times the heap of their text where groups of them hold little more
 * than the text. So pieces are joined a group at a time as
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

/**
 * A reply's tokens counted with the run's tokenizer (the pool) as its text
 * arrives, so that a stream that never finishes and reports no usage is cut
 * soon after its completion limit rather than at its character cap, hours
 * later at a slow server's pace.
 *
 * - Only once it matters: no byte-level tokenizer makes more tokens than the
 *   text has UTF-8 bytes, so counting starts when the bytes pass the cut
 *   (the limit and `countMargin`), from the text so far; until then nothing
 *   is kept (the reply's own text pieces are grouped to save memory, and a
 *   second list of them cost tens of MB in a run), and most replies end
 *   before, costing a byte count of each piece.
 * - Linear: the text waiting to be counted goes to the pool when it reaches
 *   `flushChars`, one task at a time per reply (text arriving meanwhile waits
 *   for the next), each piece counted once. The piece ends at a space between
 *   two words, where the tokenizers' pre-tokenization splits anyway; the rest
 *   waits for the next piece, so the sum of the pieces is the count of the
 *   whole, give or take a token where no such space was near.
 * - Bounded: a piece is at most TASK_CHARS, and counting stops at the first
 *   piece past the cut, so a 10 MB line is counted only as far as it takes.
 *
 * Answer and reasoning are counted as one text, in the order they came (a
 * server counts them together against the limit); a reasoning that ends
 * where the answer starts costs at most a token more.
 */
import { COUNT_MARGIN_LABEL, countMargin, overLimit } from './completion-bounds.ts';
import { ReplyError } from './reply-bounds.ts';

/** Counts texts with the run's tokenizer (GatewayOptions.countTokens). */
export type CountTexts = (texts: string[], signal: AbortSignal | undefined) => Promise<number[]>;

/** Characters one pool task counts at most: a short task, so a huge text is given up soon after the cut. */
const TASK_CHARS = 256 * 1024;
/** The least and most text gathered before a count while a stream arrives. */
const LEAST_FLUSH_CHARS = 256;
const MOST_FLUSH_CHARS = 16 * 1024;
/** How far back from the end of a piece a space between two words is looked for. */
const BOUNDARY_SEARCH = 256;

/** One reply's count. */
export interface TokenMeter {
  /** A piece of text (answer or reasoning) arrived; `sofar` gives all the text so far, this piece included, should counting start now. */
  add(piece: string, sofar: () => string): void;
  /**
   * The count of the whole text, the rest counted now (`text`, the reply's
   * reasoning and answer, when counting had not started); rejects with the
   * over-limit ReplyError past the cut, saying `why` the reply was counted.
   */
  total(why: string, text: string): Promise<number>;
  /** Stops counting: the reply's own usage is believed, or the attempt failed. */
  stop(): void;
  /**
   * Starts the count over: the text added so far was another choice's than
   * the one read (a server that sends several, choice 0 after another). A
   * count under way for that text is let go.
   */
  restart(): void;
}

export interface TokenMeterOptions {
  maxTokens: number;
  count: CountTexts;
  /** The call's signal: aborting it (the run stops) aborts the counts. */
  signal?: AbortSignal | undefined;
  /** How the limit is named in the failure past it, when it is not the completion limit (completion-bounds.ts' overLimit). */
  bound?: string | undefined;
  /** Told when a count made while the reply arrives passes the cut (the attempt is then cut). */
  onOver?: (error: ReplyError) => void;
}

/** Starts the count of one reply: nothing is kept or counted until its text could pass the cut. */
export function createTokenMeter(options: TokenMeterOptions): TokenMeter {
  return new TokenCount(options);
}

class TokenCount implements TokenMeter {
  private readonly cut: number;
  private readonly flushChars: number;
  private readonly waiting = new WaitingText();
  /** UTF-8 bytes of the text until counting starts, which they bound. */
  private bytes = 0;
  private started = false;
  private stopped = false;
  private counted = 0;
  private countedChars = 0;
  private ended = false;
  private running: Promise<void> | null = null;
  private failure: unknown = null;
  /** The counts' round: a restart begins the next, and what a count of an earlier round finds is dropped. */
  private round = 0;
  private why = 'as it arrived';

  constructor(private readonly options: TokenMeterOptions) {
    const margin = countMargin(options.maxTokens);
    this.cut = options.maxTokens + margin;
    // Text gathered while a count is out is at most about the margin's worth (at a character a token or more): the cut lags the limit by no more than the margin again.
    this.flushChars = Math.min(MOST_FLUSH_CHARS, Math.max(LEAST_FLUSH_CHARS, margin));
  }

  add(piece: string, sofar: () => string): void {
    if (this.failure !== null || this.stopped) return;
    if (this.started) this.waiting.push(piece);
    else {
      this.bytes += Buffer.byteLength(piece, 'utf8');
      if (this.bytes <= this.cut) return;
      this.started = true;
      this.waiting.push(sofar());
    }
    if (this.running === null && this.waiting.chars >= this.flushChars) this.countInFlight();
  }

  async total(why: string, text: string): Promise<number> {
    this.why = why;
    this.ended = true;
    if (!this.started) {
      this.started = true;
      this.waiting.push(text);
    }
    await this.running;
    try {
      // A count that passed the cut after the reply was whole says why the reply was counted.
      if (this.failure !== null) throw this.failure instanceof ReplyError ? this.over() : this.failure;
      await this.countSome(true);
    } finally {
      this.stop();
    }
    return this.counted;
  }

  /** A count under way is not aborted (the pool stops a running task with its thread, which then reloads its tokenizer): its result is dropped. */
  stop(): void {
    this.stopped = true;
    this.waiting.clear();
  }

  restart(): void {
    if (this.stopped) return;
    this.round += 1;
    this.waiting.clear();
    this.bytes = 0;
    this.started = false;
    this.counted = 0;
    this.countedChars = 0;
    this.failure = null;
  }

  private countInFlight(): void {
    const round = this.round;
    this.running = this.countSome(false).then(
      () => {
        this.running = null;
      },
      (error: unknown) => {
        this.running = null;
        if (round !== this.round) return;
        this.failure = error;
        if (error instanceof ReplyError) this.options.onOver?.(error);
      },
    );
  }

  /** Counts the waiting text a piece at a time, from `flushChars` of it (all of it when `all`); throws past the cut. */
  private async countSome(all: boolean): Promise<void> {
    const least = all ? 0 : this.flushChars;
    for (let piece = this.waiting.take(least); piece !== null && !this.stopped; piece = this.waiting.take(least)) {
      const round = this.round;
      const [tokens = 0] = await this.options.count([piece], this.options.signal);
      if (this.stopped || round !== this.round) return;
      this.counted += tokens;
      this.countedChars += piece.length;
      if (this.counted > this.cut) throw this.over();
    }
  }

  /** The failure past the cut; counting stops at the first piece past it, so the count may cover the text up to there only. */
  private over(): ReplyError {
    const covered = this.ended && this.waiting.chars === 0 ? '' : ` in its first ${this.countedChars} characters`;
    const what = `its text counts ${this.counted} tokens${covered} with the run's tokenizer (${this.why}), past the limit and its margin for tokenizers (${COUNT_MARGIN_LABEL}: ${this.cut})`;
    return overLimit(this.options.maxTokens, what, this.options.bound);
  }
}

/** The text not yet counted: pieces as they came, taken a piece at a time up to a boundary. */
class WaitingText {
  private pieces: string[] = [];
  chars = 0;

  push(text: string): void {
    this.pieces.push(text);
    this.chars += text.length;
  }

  clear(): void {
    this.pieces = [];
    this.chars = 0;
  }

  /**
   * The next piece to count, or null: with `least` 0, all that waits (at
   * most TASK_CHARS of it); else, once `least` characters wait, up to a
   * boundary, the text after it (a word still arriving) kept for later.
   */
  take(least: number): string | null {
    if (this.chars === 0 || this.chars < least) return null;
    const text = this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join('');
    const whole = least === 0 && text.length <= TASK_CHARS;
    const end = whole ? text.length : boundaryBefore(text, Math.min(TASK_CHARS, least === 0 ? TASK_CHARS : text.length - 1));
    const rest = text.slice(end);
    this.pieces = rest === '' ? [] : [rest];
    this.chars = rest.length;
    return text.slice(0, end);
  }
}

/** Whether the character at `i` is white space (space, tab, line ends). */
function isSpace(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * Where to end a piece at or before `at`: just before a single space between
 * two words (` word` is one pre-token in every tokenizer checked), searching
 * back BOUNDARY_SEARCH characters; else at `at` itself (a long run without
 * spaces), moved off the middle of a surrogate pair.
 */
function boundaryBefore(text: string, at: number): number {
  for (let i = at; i > 0 && i > at - BOUNDARY_SEARCH; i--) {
    if (text.charCodeAt(i) === 32 && !isSpace(text, i - 1) && i + 1 < text.length && !isSpace(text, i + 1)) return i;
  }
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

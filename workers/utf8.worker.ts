/**
 * UTF-8 encoding of the store's large values, off the main thread. Converting
 * a string that holds any character beyond Latin-1 (V8 then keeps it two bytes
 * per character) to UTF-8 costs about 2 ms per 900 kB alone and several times
 * that on a busy machine; handing the string to a thread costs about 0.3 ms.
 * The bytes come back transferred, not copied.
 */
import { Piscina } from 'piscina';

/** `text` as UTF-8 bytes, moved to the caller. */
export function encodeUtf8(text: string): unknown {
  return Piscina.move(Buffer.from(text, 'utf8'));
}

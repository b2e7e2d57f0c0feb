/**
 * Serialisation of the store's large values, off the main thread. Turning a
 * 130,000-token call record into JSON and then into UTF-8 costs the main
 * thread several milliseconds (far more when the text holds any character
 * beyond Latin-1, which V8 then keeps two bytes per character) and leaves a
 * megabyte-sized string for its collector; handing the record to a thread
 * copies its strings as they are, in a fraction of that. The bytes come back
 * transferred, not copied.
 *
 * Plain JavaScript, unlike the other worker modules: a thread that runs only
 * this file never registers tsx (a loader thread and a heap of its own; see
 * load.mjs). A run's encodes share the token-counting pool's threads.
 */
import { Piscina } from 'piscina';

/**
 * `value` as JSON in UTF-8 bytes, moved to the caller.
 *
 * @param {unknown} value
 * @returns {unknown}
 */
export function encodeJson(value) {
  return Piscina.move(Buffer.from(JSON.stringify(value), 'utf8'));
}

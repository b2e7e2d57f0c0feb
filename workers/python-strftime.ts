/**
 * Python's datetime.strftime in the C locale, as glibc writes each directive:
 * what a chat template's `strftime_now("%d %B %Y")` gives (Llama 3.x's write
 * today's date into the system message). Local time, as datetime.now() is.
 */

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function pad(value: number, width: number, fill = '0'): string {
  return String(value).padStart(width, fill);
}

/** The day of the year, 1 on 1 January. */
function dayOfYear(date: Date): number {
  const start = new Date(date.getFullYear(), 0, 1);
  return Math.round((Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) - Date.UTC(start.getFullYear(), 0, 1)) / 86_400_000) + 1;
}

/** The offset from UTC as +HHMM. */
function offset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60), 2)}${pad(Math.abs(minutes) % 60, 2)}`;
}

/** Each directive's value, zero-padded as glibc pads it; the `-` flag (`%-d`) drops the padding. */
function directive(date: Date, code: string): string | null {
  const hour12 = date.getHours() % 12 === 0 ? 12 : date.getHours() % 12;
  const values: Record<string, () => string> = {
    Y: () => String(date.getFullYear()),
    y: () => pad(date.getFullYear() % 100, 2),
    m: () => pad(date.getMonth() + 1, 2),
    d: () => pad(date.getDate(), 2),
    e: () => pad(date.getDate(), 2, ' '),
    H: () => pad(date.getHours(), 2),
    I: () => pad(hour12, 2),
    M: () => pad(date.getMinutes(), 2),
    S: () => pad(date.getSeconds(), 2),
    f: () => pad(date.getMilliseconds() * 1000, 6),
    p: () => (date.getHours() < 12 ? 'AM' : 'PM'),
    A: () => DAYS[date.getDay()] as string,
    a: () => (DAYS[date.getDay()] as string).slice(0, 3),
    B: () => MONTHS[date.getMonth()] as string,
    b: () => (MONTHS[date.getMonth()] as string).slice(0, 3),
    h: () => (MONTHS[date.getMonth()] as string).slice(0, 3),
    j: () => pad(dayOfYear(date), 3),
    w: () => String(date.getDay()),
    u: () => String(date.getDay() === 0 ? 7 : date.getDay()),
    z: () => offset(date),
    F: () => `${date.getFullYear()}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`,
    D: () => `${pad(date.getMonth() + 1, 2)}/${pad(date.getDate(), 2)}/${pad(date.getFullYear() % 100, 2)}`,
    T: () => `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}`,
    R: () => `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}`,
    // The C locale's date and time forms, and the week numbers counted from the year's first Sunday (U) or Monday (W).
    c: () => `${(DAYS[date.getDay()] as string).slice(0, 3)} ${(MONTHS[date.getMonth()] as string).slice(0, 3)} ${pad(date.getDate(), 2, ' ')} ${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)} ${date.getFullYear()}`,
    x: () => `${pad(date.getMonth() + 1, 2)}/${pad(date.getDate(), 2)}/${pad(date.getFullYear() % 100, 2)}`,
    X: () => `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}`,
    r: () => `${pad(hour12, 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)} ${date.getHours() < 12 ? 'AM' : 'PM'}`,
    U: () => pad(Math.floor((dayOfYear(date) - 1 + 7 - date.getDay()) / 7), 2),
    W: () => pad(Math.floor((dayOfYear(date) - 1 + 7 - ((date.getDay() + 6) % 7)) / 7), 2),
    C: () => pad(Math.floor(date.getFullYear() / 100), 2),
    k: () => pad(date.getHours(), 2, ' '),
    l: () => pad(hour12, 2, ' '),
    P: () => (date.getHours() < 12 ? 'am' : 'pm'),
    n: () => '\n',
    t: () => '\t',
    '%': () => '%',
  };
  return values[code]?.() ?? null;
}

/** `format` with each directive replaced by `date`'s value; an unknown one is left as written, as glibc leaves it. */
export function strftime(date: Date, format: string): string {
  return format.replace(/%(-?)(.)/gs, (whole, unpadded: string, code: string) => {
    const value = directive(date, code);
    if (value === null) return whole;
    return unpadded === '-' ? value.replace(/^[0 ]+(?=.)/, '') : value;
  });
}

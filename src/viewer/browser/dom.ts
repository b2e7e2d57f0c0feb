/**
 * The page's building blocks. Texts go in with textContent (never innerHTML),
 * then KaTeX renders the math they hold.
 */
import { mathRenderer, probe } from './globals.ts';

/** An event handler set as a property of its element. */
type Handler = (event: Event) => unknown;

/** Attributes of an element: `text` is its text, `on…` its handlers; null and undefined are left out. */
export type Attrs = Record<string, string | number | Handler | null | undefined>;

/** A child: an element, a text, or nothing. */
export type Child = Node | string | null | undefined;

const HANDLERS = new Set(['onclick', 'onchange', 'oninput', 'ontoggle']);

/** An element with its attributes and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, children?: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null) continue;
    if (name === 'text') node.textContent = String(value);
    else if (HANDLERS.has(name)) (node as unknown as Record<string, unknown>)[name] = value;
    else node.setAttribute(name, String(value));
  }
  for (const child of children ?? []) if (child !== null && child !== undefined) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

/** A share of 1 as a percentage with one decimal, or – when there is none. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${Math.round(value * 1000) / 10}%`;
}

/** A score with two decimals, or – when there is none. */
export function score(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : Number(value).toFixed(2);
}

/** An answer is LaTeX without delimiters: typeset it inline unless it already has some. */
export function asMath(answer: string): string {
  return /\$|\\\(/.test(answer) ? answer : `$${answer}$`;
}

/** Typesets the math in a node's texts (KaTeX), and counts what the page has typeset. */
export function math<T extends HTMLElement>(node: T): T {
  const render = mathRenderer();
  if (render) {
    render(node, {
      delimiters: [
        { left: '$$', right: '$$', display: true },
        { left: '\\[', right: '\\]', display: true },
        { left: '\\(', right: '\\)', display: false },
        { left: '$', right: '$', display: false },
      ],
      throwOnError: false,
      ignoredTags: ['script', 'noscript', 'style', 'textarea', 'option', 'summary'],
    });
    probe.rendered = document.querySelectorAll('.katex').length;
  }
  return node;
}

/** How a text block shows: its kind (what the page styles and tests find), and collapsed behind its first line. */
export interface TextBlockOptions {
  kind?: string;
  collapsed?: boolean;
}

/** A text block: math rendered; collapsed behind its first line when asked or long. */
export function textBlock(label: string, text: string | null | undefined, options: TextBlockOptions = {}): HTMLElement {
  const body = el('div', { class: 'text', 'data-kind': options.kind }, [text === null || text === undefined ? '' : String(text)]);
  const whole = text || '';
  if (options.collapsed || whole.length > 400) {
    const preview = whole.replace(/\s+/g, ' ').slice(0, 140);
    return el('details', { class: 'block', 'data-kind': options.kind }, [el('summary', {}, [el('b', { text: label }), ' ', el('span', { class: 'muted', text: preview + (whole.length > 140 ? '…' : '') })]), body]);
  }
  return el('div', { class: 'block', 'data-kind': options.kind }, [el('b', { text: label }), body]);
}

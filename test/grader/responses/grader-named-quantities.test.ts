/**
 * A last sentence that names several quantities, each a number followed by its words ("5 units wide and 3 units
 * tall"): graded by the one the question asks for, and unsure where the question names none of them or several, never
 * as its last number. Every case was written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer, type Verdict } from '../../../src/grader/index.ts';

/** The verdict a run gives a reply, with its question where one is given. */
function verdict(response: string, gold: string, question?: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response, ...(question === undefined ? {} : { question }) }).verdict;
}

const RECTANGLE = ['Working it out. So the rectangle is $5$ units wide and $3$ units tall.', 'Working it out. The answer is 5 units wide and 3 units tall.'];

describe('a last sentence naming several quantities', () => {
  it('is graded by the quantity the question names', () => {
    // Read as its last number, the height 3 was graded equal to a reference 3 where the width was asked, sure of it.
    for (const reply of RECTANGLE) {
      expect(verdict(reply, '5', 'What is the width of the rectangle?'), reply).toBe('equal');
      expect(verdict(reply, '3', 'What is the width of the rectangle?'), reply).toBe('different');
      expect(verdict(reply, '3', 'How tall is the rectangle?'), reply).toBe('equal');
      expect(verdict(reply, '5', 'How tall is the rectangle?'), reply).toBe('different');
    }
    const box = 'Working it out. So the box is $4$ cm long, $3$ cm wide and $2$ cm high.';
    expect(verdict(box, '2', 'What is the height of the box?')).toBe('equal');
    expect(verdict(box, '3', 'What is the height of the box?')).toBe('different');
    expect(verdict('Working it out. So she has $5$ apples and $3$ oranges left.', '3', 'How many oranges does she have left?')).toBe('equal');
  });

  it('is unsure where the question names none of them, several, or is not given', () => {
    for (const reply of RECTANGLE) {
      for (const gold of ['3', '5', '15']) {
        expect(verdict(reply, gold, 'What is the area of the rectangle?'), reply).toBe('unsure');
        expect(verdict(reply, gold, 'Find the width and the height.'), reply).toBe('unsure');
        expect(verdict(reply, gold), reply).toBe('unsure');
      }
    }
    expect(verdict('Working it out. So the box is $4$ cm long, $3$ cm wide and $2$ cm high.', '2', 'What is the volume of the box?')).toBe('unsure');
  });

  it('leaves one kind of quantity named twice, and a conclusion after the quantities', () => {
    expect(verdict('Working it out. The sides are $5$ cm and $3$ cm long.', '3')).not.toBe('unsure');
    expect(verdict('So she has $5$ apples and $3$ oranges, so $8$ fruits in total.', '8', 'How many fruits does she have?')).toBe('equal');
  });

  it('is one measure where its quantities are in units of one dimension', () => {
    // Read as two quantities, "How many hours" took the 12 of "12 hours and 30 minutes", equal to a reference 12.
    const trip = 'Working it out. The trip takes $12$ hours and $30$ minutes.';
    for (const gold of ['12', '30']) expect(verdict(trip, gold, 'How many hours does the trip take?')).not.toBe('equal');
    expect(verdict('Working it out. He is $5$ feet and $3$ inches tall.', '5', 'How many feet tall is he?')).not.toBe('equal');
  });
});

describe('values each under a letter of its own', () => {
  it('are graded by the letter the question asks for', () => {
    // Read whole, "x = 5, y = 3" was graded different from the right 5 where the question asked for $x$, sure of it.
    const reply = 'We work.\n\nSo $x = 5$ and $y = 3$.';
    expect(verdict(reply, '5', 'Find $x$.')).toBe('equal');
    expect(verdict(reply, '3', 'Find $x$.')).toBe('different');
    expect(verdict(reply, '3', 'Given that $x + y = 8$, what is $y$?')).toBe('equal');
  });

  it('stay whole where the question asks for neither, both, or counts the letter', () => {
    const reply = 'We work.\n\nSo $x = 5$ and $y = 3$.';
    for (const question of ['Find $x + y$.', 'How many integers $x$ satisfy it?']) for (const gold of ['5', '3']) expect(verdict(reply, gold, question)).not.toBe('equal');
    expect(verdict('We work.\n\nSo $x = 1$ and $x = 2$.', '1', 'Find $x$.')).not.toBe('equal');
    expect(verdict('We work.\n\nSo $x = 1$ and $x = 2$.', '1, 2', 'Find all $x$.')).toBe('equal');
  });
});

/**
 * A call's journal key hashes its fit key (src/pool/fit-key.ts): a key that
 * changed between versions would make a resume or a replay of an older run
 * miss every journaled call and pay for it again. These keys are the ones
 * tmas made before the fit key was written without its intermediate copy.
 */
import { describe, expect, test } from 'vitest';
import { fitKey } from '../../src/pool/fit-key.ts';
import type { FitTask } from '../../workers/tasks.ts';

const LONG = 'A solution that goes on. '.repeat(100);

describe('fit keys', () => {
  test('a prompt of text parts keys as it did', () => {
    const task: FitTask = {
      encoding: 'o200k_base',
      budget: 114432,
      system: 'You are the Verification agent.',
      parts: [
        { id: 'problem', text: 'What is 2+2?' },
        { id: 'solution', text: LONG, drop: 2, maxTokens: 500 },
      ],
    };
    expect(fitKey(task)).toBe('["o200k_base",114432,"-pYzDGr31w8W4sOnxiCQPT",[["problem",null,"UstrXkoDivF1Zwj5ivtxig"],["solution",2,"eJHTHmNtc_Tp5OZKaw7BQ7",500]]]');
  });

  test('a prompt of templates (nested values, numeric field names, empty lists, drops, whitespace) keys as it did', () => {
    const task: FitTask = {
      encoding: 'hf:abc',
      budget: 1000,
      system: {
        id: 'system',
        template: 'Bank: {{ bank }}',
        variables: { bank: [{ text: 'one', score: 0.5 }, { text: LONG, score: 1e21, ok: true, none: null }], '10': 'ten', '2': 'two', name: 'x', empty: [], nested: { a: { b: [1, 'c', { d: false }] } } },
        drops: [{ id: 'r0', path: ['bank', 0], drop: 1 }],
        whitespace: 'jinja2',
      },
      parts: [
        { id: 'q', template: '{{ q }} and {{ s }}', variables: { q: 'Find x.', s: LONG, n: -0.5, list: [[], [[]], ['', LONG]] } },
        { id: 'plain', text: '', drop: 0 },
      ],
    };
    expect(fitKey(task)).toBe(
      '["hf:abc",1000,["system","gt6W_mn4bJAQy5knk-7Wwz",{"2":"P8TM_nRYcOLA2Z9x8w_wZW","10":"5EMrqpCBmq71HSp_jhSL9-","bank":[{"text":"dpLDrTVAu4A8Ags67mbNiI","score":0.5},{"text":"eJHTHmNtc_Tp5OZKaw7BQ7","score":1e+21,"ok":true,"none":null}],"name":"LXEWQrcmsEQBYnyp-6wy9c","empty":[],"nested":{"a":{"b":[1,"Ln0sA6lQeuJl7PW1NWiFpT",{"d":false}]}}},[["r0",1,["bank",0]]],"jinja2"],[["q","7NyCCStYIAqP7eowz0jY1W",{"q":"3ZMoOO9bhgCQh1dXVhVPjQ","s":"eJHTHmNtc_Tp5OZKaw7BQ7","n":-0.5,"list":[[],[[]],["47DEQpj8HBSa-_TImW-5JC","eJHTHmNtc_Tp5OZKaw7BQ7"]]},[]],["plain",0,"47DEQpj8HBSa-_TImW-5JC"]]]',
    );
  });
});

/** A loop's items unpacked into its names as Python unpacks them. */
import { markTuple, type RuntimeValue } from './python-str.ts';
import { runtime } from './jinja2-values.ts';

type Value = RuntimeValue;

/**
 * A loop's items made unpackable as Python unpacks them (`{% for a, b in [(1, 2)] %}`, `in ['xy']`): a tuple as a list
 * marked a tuple, a text as its characters (the library unpacked lists alone: "Cannot unpack non-iterable type").
 */
export function unpackable(items: Value): Value {
  const list = runtime([]);
  list.value = (items.value as Value[]).map((item) => {
    if (item.type !== 'TupleValue' && item.type !== 'StringValue') return item;
    const unpacked = runtime(item.type === 'StringValue' ? Array.from(String(item.value)) : []);
    if (item.type === 'TupleValue') {
      unpacked.value = [...(item.value as Value[])];
      markTuple(unpacked);
    }
    return unpacked;
  });
  return list;
}

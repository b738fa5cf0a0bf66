// Named bad values, shared by the row families of the misuse table (table.mjs): each family is
// "one argument x every value of one of these lists", and a row's id ends with the value's name,
// so ids stay readable and stable when a value is added.

/** Every value that is not a positive integer (counts, vertex counts, instances). */
export const NOT_POSITIVE_INTEGER = {
  zero: 0, negative: -1, fractional: 1.5, NaN, Infinity, string: '4', null: null, boolean: true, bigint: 4n, symbol: Symbol('count'), object: {},
};

/** Every value that is not a non-negative integer (offsets, indices, parts, first records). */
export const NOT_NON_NEGATIVE_INTEGER = {
  negative: -4, fractional: 1.5, NaN, Infinity, string: '4', null: null, boolean: true, bigint: 4n, symbol: Symbol('offset'),
};

/** Every value that is not a boolean (queries, fuseSubsteps, portable, ownsContext). */
export const NOT_BOOLEAN = { number: 1, string: 'yes', null: null, object: {} };

/** Every value that is not an options object (the second or third argument of most calls). */
export const NOT_AN_OBJECT = { null: null, string: 'x', number: 5, array: [], function: () => {} };

/** Every value that is not a string (sources, names, labels). */
export const NOT_A_STRING = { number: 5, null: null, object: {}, array: ['a'], symbol: Symbol('name') };

/** Every value that is not a number a uniform takes (any uniform type). */
export const NOT_A_UNIFORM_VALUE = {
  undefined, null: null, string: '2', boolean: true, object: {}, empty: [], NaN, 'NaN-element': [NaN], 'string-element': ['1'], nested: [[1]], symbol: Symbol('value'), bigint: 2n,
};

/** Integers an int uniform cannot hold, or numbers that are not integers. */
export const NOT_AN_INT = {
  fractional: 2.5, 'above-2^31-1': 2 ** 31, 'below--2^31': -(2 ** 31) - 1, '2^40': 2 ** 40, Infinity, '-Infinity': -Infinity, '1e300': 1e300,
};

/** Numbers a uint uniform cannot hold. */
export const NOT_A_UINT = { negative: -1, fractional: 0.5, '2^32': 2 ** 32, Infinity };

/** Names a program never declares as a uniform: Object.prototype's names, an attribute, a varying. */
export const NOT_A_UNIFORM_NAME = {
  unknown: 'nope', toString: 'toString', ['__proto__']: '__proto__', constructor: 'constructor', empty: '', 'trailing-space': 'k ', attribute: 'p', varying: 'out_p',
};

/** An object of an xfb object's class made without its constructor (Object.create of its
 *  prototype): it looks like one and has no brand (issue 39: it threw a raw TypeError). */
export const forged = (object) => Object.create(Object.getPrototypeOf(object));

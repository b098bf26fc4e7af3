// Package pycompat is what Python compatibility needs and nothing else:
// CPython 3.11's str semantics (isspace, strip, len in code points, \w and
// \d, splitlines, full case mapping), number parsing and printing as
// float(), int(), repr() and decimal.Decimal do, json.loads of a list of
// numbers, list.sort's exact order, and random.Random draw for draw.
//
// Unless a function says otherwise, a string is the UTF-8 encoding of a
// Python str, and a byte that is not valid UTF-8 counts as one code point
// that belongs to no class.
package pycompat

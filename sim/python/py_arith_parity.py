#!/usr/bin/env python3
"""Parity of dtrcheck's Python-arithmetic port (sim/python/py_arith) with python3.

Generates adversarial queries deterministically from a fixed seed, sends them
all to py_arith_driver over one pipe, and compares every answer with what python3
computes itself:

  D a b      a / b                       (int true division, the hot path)
  P a b c    a / (b * c)                 (exact product, may leave 128 bits)
  F a        float(a)
  C a x      (a > x) - (a < x)           (exact int-vs-float comparison)
  T x        int(x)
  R text     dtrcheck's strict integer format (records, options: -?[0-9]+ in
             [-2^127, 2^127)), else none; where it answers, the answer must
             be python3's int(text)
  I hex      Python's int() of the UTF-8 bytes `hex` (what simrd's int()
             reads from a log): must be python3's own int(bytes.decode()),
             none where python3 raises, range past [-2^127, 2^127)

Doubles are compared bit for bit (so -0.0 != 0.0). Exits 1 naming the first
mismatches, 0 when everything agrees.

Usage: py_arith_parity.py --driver PATH [--seed N] [--count N]
"""

import argparse
import math
import random
import re
import struct
import subprocess
import sys
import unicodedata
from typing import Any

# A query: its operation letter, then its operands (ints, floats or text).
Query = tuple[Any, ...]

INT_MIN = -(1 << 127)
INT_MAX = (1 << 127) - 1
DEFAULT_SEED = 20240611

# Magnitudes around which rounding and the implementation's code paths change:
# the double mantissa (2^53), 64-bit words, the 128-bit limit, and the bit
# lengths where the quotient needs a wider-than-128-bit numerator (2^73).
PIVOTS = [1, 2, 52, 53, 54, 55, 56, 60, 62, 63, 64, 65, 70, 72, 73, 74, 75,
          100, 110, 120, 125, 126, 127]


def clamp_ok(v: int) -> bool:
    return INT_MIN <= v <= INT_MAX


def bits_of(x: float) -> bytes:
    return struct.pack('<d', x)


class Gen:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def sign(self, v: int) -> int:
        return -v if self.r.random() < 0.5 else v

    def rand_bits(self, n: int) -> int:
        """A random nonnegative int with exactly n bits (0 for n == 0)."""
        if n <= 0:
            return 0
        return (1 << (n - 1)) | self.r.getrandbits(n - 1) if n > 1 else 1

    def rand_int(self, max_bits: int = 127, signed: bool = True) -> int:
        v = self.rand_bits(self.r.randint(0, max_bits))
        if signed:
            v = self.sign(v)
        return v if clamp_ok(v) else INT_MAX

    def near_pow2(self) -> int:
        e = self.r.choice(PIVOTS)
        delta = self.r.choice([0, 1, -1, 2, -2, 3, -3, self.r.randint(-1000, 1000),
                               self.r.getrandbits(11), -(1 << self.r.randint(0, 20))])
        v = (1 << e) + delta
        if e == 127:
            v = (1 << 127) - abs(delta) - 1 if self.r.random() < 0.5 else -(1 << 127) + abs(delta)
            return v
        v = self.sign(v)
        return v if clamp_ok(v) else INT_MAX

    def nonzero(self, v: int) -> int:
        return v if v != 0 else self.sign(1)


def gen_divisions(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    kinds = 0
    while len(out) < n:
        kinds += 1
        k = r.randrange(12)
        if k == 0:  # random bit lengths, random signs
            a, b = g.rand_int(), g.nonzero(g.rand_int())
        elif k == 1:  # both near pivots
            a, b = g.near_pow2(), g.nonzero(g.near_pow2())
        elif k == 2:  # simrd-like: a < 2^60, b in 2^64..2^70 (and products)
            a = r.getrandbits(r.randint(1, 60))
            if r.random() < 0.5:
                b = r.getrandbits(r.randint(64, 70)) | 1 << 63
            else:
                b = (r.getrandbits(r.randint(20, 40)) + 1) * (r.getrandbits(r.randint(20, 35)) + 1)
            a, b = g.sign(a), g.nonzero(g.sign(b))
        elif k == 3:  # exact halfway cases: a / b == h * 2^t, h odd with 54 bits
            h = (1 << 53) | (r.getrandbits(53) | 1)
            b = g.rand_bits(r.randint(1, 73))
            a = h * b
            # Move the tie by a power of two on either side.
            t = r.randint(0, 127)
            if a.bit_length() + t <= 127 and r.random() < 0.5:
                a <<= t
            elif b.bit_length() + t <= 127:
                b <<= t
            if a.bit_length() > 127:
                continue
            a, b = g.sign(a), g.sign(b)
        elif k == 4:  # just off a tie (one unit of the numerator either way)
            h = (1 << 53) | (r.getrandbits(53) | 1)
            b = g.rand_bits(r.randint(1, 73))
            a = h * b + r.choice([-1, 1])
            t = r.randint(0, 60)
            if b.bit_length() + t <= 127 and r.random() < 0.5:
                b <<= t
            if a.bit_length() > 127 or a <= 0:
                continue
            a, b = g.sign(a), g.sign(b)
        elif k == 5:  # (2^53 + odd) / power of two: tie in the integer part
            a = (1 << 53) + (2 * r.getrandbits(r.randint(0, 52)) + 1)
            a <<= r.randint(0, 127 - 54)
            b = 1 << r.randint(0, 126)
            a, b = g.sign(a), g.sign(b)
        elif k == 6:  # odd * 2^m over power-of-two times odd
            a = (2 * g.rand_bits(r.randint(0, 80)) + 1) << r.randint(0, 40)
            b = (2 * g.rand_bits(r.randint(0, 60)) + 1) << r.randint(0, 60)
            if a.bit_length() > 127 or b.bit_length() > 127:
                continue
            a, b = g.sign(a), g.sign(b)
        elif k == 7:  # small values
            a, b = r.randint(-1000, 1000), g.nonzero(r.randint(-1000, 1000))
        elif k == 8:  # large divisors (wide numerator path) and large numerators
            a = g.rand_int()
            b = g.nonzero(g.sign(g.rand_bits(r.randint(74, 127))))
        elif k == 9:  # exact integer quotients
            q = g.rand_bits(r.randint(1, 100))
            b = g.rand_bits(r.randint(1, 127 - q.bit_length()))
            a, b = g.sign(q * b), g.sign(b)
        elif k == 10:  # extremes
            a = r.choice([INT_MIN, INT_MAX, INT_MIN + 1, 1, -1, 0, 1 << 126, (1 << 53) + 1])
            b = r.choice([INT_MIN, INT_MAX, 1, -1, 3, 1 << 64, (1 << 64) - 1, (1 << 53) + 1,
                          g.nonzero(g.rand_int())])
        else:  # a near a pivot, b random
            a, b = g.near_pow2(), g.nonzero(g.rand_int())
        if not (clamp_ok(a) and clamp_ok(b)) or b == 0:
            continue
        out.append(('D', a, b))


def gen_products(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    while len(out) < n:
        k = r.randrange(4)
        if k == 0:  # random widths, product often above 128 bits
            a = g.rand_int()
            b = g.nonzero(g.rand_int())
            c = g.nonzero(g.rand_int())
        elif k == 1:  # halfway: a = h*u*v, b = u*2^p, c = v*2^q
            h = (1 << 53) | (r.getrandbits(53) | 1)
            u = g.rand_bits(r.randint(1, 35))
            v = g.rand_bits(r.randint(1, 35))
            a = h * u * v
            if a.bit_length() > 127:
                continue
            b = u << r.randint(0, 127 - u.bit_length())
            c = v << r.randint(0, 127 - v.bit_length())
            a, b, c = g.sign(a), g.sign(b), g.sign(c)
        elif k == 2:  # simrd-like: compute / (size * staleness)
            a = g.rand_bits(r.randint(1, 60))
            b = g.rand_bits(r.randint(1, 64))
            c = g.rand_bits(r.randint(1, 64))
        else:  # near pivots
            a = g.near_pow2()
            b = g.nonzero(g.near_pow2())
            c = g.nonzero(g.near_pow2())
        if not (clamp_ok(a) and clamp_ok(b) and clamp_ok(c)) or b == 0 or c == 0:
            continue
        out.append(('P', a, b, c))


def gen_floats(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    while len(out) < n:
        k = r.randrange(4)
        if k == 0:
            a = g.rand_int()
        elif k == 1:  # exactly halfway between two doubles, and just off it
            m = (1 << 52) | r.getrandbits(52)  # 53 bits: 2m+1 is a 54-bit tie
            sh = r.randint(0, 127 - 54)
            a = ((2 * m + 1) << sh)
            if sh > 0:
                a += r.choice([0, 0, 1, -1, r.getrandbits(sh), -r.getrandbits(sh)])
            a = g.sign(a)
        elif k == 2:
            a = g.near_pow2()
        else:
            a = g.sign(g.rand_bits(r.randint(60, 127)) | r.choice([0, 1 << 10, 0x7ff]))
        if clamp_ok(a):
            out.append(('F', a))


def gen_compares(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    specials = [math.inf, -math.inf, 0.0, -0.0, 2.0 ** 127, -2.0 ** 127,
                math.nextafter(2.0 ** 127, 0), math.nextafter(-2.0 ** 127, -math.inf),
                1e300, -1e300, 0.5, -0.5, 5e-324, -5e-324, 2.0 ** 53, 2.0 ** 64]
    while len(out) < n:
        k = r.randrange(6)
        if k == 0:
            i = g.rand_int()
            x = float(i)
        elif k == 1:
            i = g.rand_int()
            x = math.nextafter(float(i), r.choice([math.inf, -math.inf]))
        elif k == 2:
            i = g.rand_int(60)
            x = i + r.choice([0.5, -0.5, 0.25, 0.999, -0.999, 1e-9])
        elif k == 3:
            i = r.choice([INT_MIN, INT_MAX, INT_MIN + 1, 0, 1, -1, g.rand_int()])
            x = r.choice(specials)
        elif k == 4:
            i = g.near_pow2()
            x = float(g.near_pow2())
        else:
            i = g.rand_int()
            x = r.uniform(-1, 1) * 2.0 ** r.randint(-60, 140)
        if not clamp_ok(i) or math.isnan(x):
            continue
        out.append(('C', i, x))


def gen_truncs(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    while len(out) < n:
        k = r.randrange(3)
        if k == 0:
            x = r.uniform(-1, 1) * 2.0 ** r.randint(-10, 126)
        elif k == 1:
            x = float(g.rand_int(126)) + r.choice([0.0, 0.5, -0.5, 0.75])
        else:
            x = r.choice([0.0, -0.0, 0.9999, -0.9999, 2.0 ** 126, -2.0 ** 127,
                          math.nextafter(2.0 ** 127, 0), 1e-300, -1e-300])
        if abs(x) < 2.0 ** 127 or x == -2.0 ** 127:
            out.append(('T', x))


def gen_parses(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    fixed = ['', '-', '+1', '1a', ' 1', '1 ', '0x10', '1_000', '--1', '-0', '0', '007',
             '-007', str(INT_MAX), str(INT_MIN), str(INT_MAX + 1), str(INT_MIN - 1),
             str(INT_MAX * 10), '1' * 39, '1' * 40, '9' * 39, '0' * 50 + '12', '١٢', '1.0',
             '1e5', '-' + '0' * 45]
    for s in fixed:
        out.append(('R', s))
    while len(out) < n:
        k = r.randrange(3)
        if k == 0:
            s = str(g.rand_int())
        elif k == 1:
            s = str(r.choice([INT_MAX, INT_MIN]) + r.randint(-5, 5))
        else:
            s = str(g.rand_int())
            p = r.randrange(len(s) + 1)
            s = s[:p] + r.choice('x.+- /:') + s[p:]
        out.append(('R', s))


PARSE_RE = re.compile(r'-?[0-9]+\Z')

# str.isspace() characters, and the zero of each run of decimal digits, as
# python3 itself lists them (not a copy of dtrcheck's tables).
SPACES = [chr(c) for c in range(0x110000) if chr(c).isspace()]
ZEROS = [c for c in range(0x110000) if unicodedata.decimal(chr(c), -1) == 0]


def gen_int_texts(g: Gen, n: int, out: list[Query]) -> None:
    r = g.r
    fixed = [' 1000 ', '+10', '1_00', '1__0', '_1', '1_', '-_1', '+-1', '- 1', '\u0661\u0660',
             '\xa010\u2003', '\x1c7\x1f', '\x0b\x0c5', '0_0', '00', '1e3', '10.0', ' ', '',
             '\U0001d7ce\U0001d7d9', '\u00b2', '\u2167', '+', '-0_0', '7\x00']
    for t in fixed:
        out.append(('I', t.encode()))
    for b in (b'\xff1', b'1\xc0\x80', b'\xed\xa0\x80', b'\xe2\x80', b'12\xf4\x90\x80\x80'):
        out.append(('I', b))
    while len(out) < n:
        digits = str(g.rand_int(r.choice([8, 64, 127, 130]), signed=False))
        text = ''
        for k, ch in enumerate(digits):
            if r.random() < 0.2:
                ch = chr(r.choice(ZEROS) + int(ch))
            if k and r.random() < 0.1:
                text += '_' * r.choice([1, 1, 1, 2])
            text += ch
        if r.random() < 0.5:
            text = r.choice(['-', '+', '']) + text
        for _ in range(r.randrange(3)):
            text = r.choice(SPACES) + text
        for _ in range(r.randrange(3)):
            text += r.choice(SPACES)
        if r.random() < 0.1:
            p = r.randrange(len(text) + 1)
            text = text[:p] + r.choice(['x', '.', '_', ' ', '\u00bd', '\u0bf0', '\x00']) + text[p:]
        out.append(('I', text.encode()))


def expected(q: Query) -> Any:
    op = q[0]
    if op == 'D':
        return q[1] / q[2]
    if op == 'P':
        return q[1] / (q[2] * q[3])
    if op == 'F':
        return float(q[1])
    if op == 'C':
        i, x = q[1], q[2]
        return (i > x) - (i < x)
    if op == 'T':
        return int(q[1])
    if op == 'R':
        s = q[1]
        if not PARSE_RE.fullmatch(s) or not s.isascii():
            return None
        v = int(s)
        return v if clamp_ok(v) else None
    if op == 'I':
        try:
            v = int(q[1].decode())
        except (UnicodeDecodeError, ValueError):
            return None
        return v if clamp_ok(v) else 'range'
    raise ValueError(op)


def encode(q: Query) -> str:
    op = q[0]
    if op in ('D', 'P', 'F'):
        return op + ' ' + ' '.join(str(v) for v in q[1:])
    if op == 'C':
        return 'C %d %s' % (q[1], q[2].hex())
    if op == 'T':
        return 'T ' + q[1].hex()
    if op == 'I':
        return 'I ' + q[1].hex()
    return 'R ' + q[1]


def decode(op: str, text: str) -> Any:
    if text == 'error':
        return 'error'
    if op in ('D', 'P', 'F'):
        return float.fromhex(text)
    if op == 'C':
        return int(text)
    if op == 'T':
        return int(text)
    if op == 'I' and text == 'range':
        return text
    return None if text == 'none' else int(text)


def same(op: str, got: Any, want: Any) -> bool:
    if op in ('D', 'P', 'F'):
        return isinstance(got, float) and bits_of(got) == bits_of(want)
    return got == want


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--driver', required=True, help='path to py_arith_driver')
    ap.add_argument('--seed', type=int, default=DEFAULT_SEED)
    ap.add_argument('--count', type=int, default=150000,
                    help='number of a/b division pairs (other checks scale with it)')
    ap.add_argument('--show', type=int, default=20, help='mismatches to print')
    args = ap.parse_args()

    print('arith_parity: seed %d' % args.seed)
    g = Gen(random.Random(args.seed))
    queries: list[Query] = []
    gen_divisions(g, args.count, queries)
    n_div = len(queries)
    gen_products(g, n_div + args.count // 3, queries)
    gen_floats(g, len(queries) + args.count // 5, queries)
    gen_compares(g, len(queries) + args.count // 5, queries)
    gen_truncs(g, len(queries) + args.count // 20, queries)
    gen_parses(g, len(queries) + args.count // 20, queries)
    gen_int_texts(g, len(queries) + args.count // 10, queries)

    payload = ''.join(encode(q) + '\n' for q in queries)
    proc = subprocess.run([args.driver], input=payload, capture_output=True, text=True)
    if proc.returncode != 0:
        print('arith_parity: driver exited with %d: %s' % (proc.returncode, proc.stderr))
        return 1
    answers = proc.stdout.split('\n')
    if answers and answers[-1] == '':
        answers.pop()
    if len(answers) != len(queries):
        print('arith_parity: driver gave %d answers for %d queries'
              % (len(answers), len(queries)))
        return 1

    counts: dict[str, int] = {}
    mismatches: list[tuple[Query, str, Any]] = []
    for q, text in zip(queries, answers):
        op = q[0]
        counts[op] = counts.get(op, 0) + 1
        want = expected(q)
        try:
            got = decode(op, text)
        except ValueError:
            got = 'unparsable %r' % text
        if not same(op, got, want):
            mismatches.append((q, text, want))

    summary = ', '.join('%s=%d' % (k, counts[k]) for k in sorted(counts))
    print('arith_parity: %d queries (%s)' % (len(queries), summary))
    if mismatches:
        print('arith_parity: %d MISMATCHES; first %d:'
              % (len(mismatches), min(args.show, len(mismatches))))
        for q, text, want in mismatches[:args.show]:
            w = want.hex() if isinstance(want, float) else repr(want)
            print('  %s  -> driver %s, python %s' % (encode(q), text, w))
        return 1
    print('arith_parity: all %d answers match python3 %s' % (len(queries), sys.version.split()[0]))
    return 0


if __name__ == '__main__':
    sys.exit(main())

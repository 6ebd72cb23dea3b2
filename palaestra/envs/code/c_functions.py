"""Write a C function with a given prototype: arrays changed in place, strings, bits, matrices.

The answer is C code defining the function (and any helpers), without ``main``. It is compiled
with our trusted test driver (``gcc -std=gnu17 -O2 main.c solution.c``), which reads the hidden
tests from stdin, calls the function and prints one line per test; the trusted parent compares
the lines with the outputs of our Python references. What C adds to the skill: in-place
mutation through pointers and returned lengths, NUL-terminated strings edited in place, fixed
32-bit unsigned arithmetic, row-major matrices in flat arrays.

Templates (parameters vary the rule):

- **compact**: remove the elements matching a generated predicate in place, return the new length;
- **permute**: rotate left or right by k, reverse blocks of k, or perfect-shuffle, in place;
- **bits**: a 32-bit unsigned transform (rotations, bit reversal, Gray code, masks, popcounts);
- **tokens**: count the tokens of a string split by a generated set of separators, at least L long;
- **transform**: edit a string in place (capitalise words, swap case, collapse spaces, drop vowels,
  shift letters);
- **merge**: merge two sorted arrays into an output array (union, intersection, difference);
- **matrix**: read a row-major matrix into an output array in spiral or rotated order.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import (
    SizedConfig,
    Template,
    TemplatedTask,
    convention,
    near_misses,
    pins_constants,
)
from palaestra.envs.code.templates import ProgramTexts

MASK = 0xFFFFFFFF
CODE = ProgramTexts("c_functions")
DRIVER_HEAD = CODE("driver.head")



class CTemplate(Template):
    """One kind of C function: its prototype, statement, trusted reference, C reference, driver."""

    PROTOTYPE: ClassVar[str]  # the function's prototype, with {function} for its drawn name

    def prototype(self, p: dict[str, Any]) -> str:
        return self.PROTOTYPE.format(function=p["function"])

    def test_input(self, args: list[Any], p: dict[str, Any]) -> str:
        """The driver's input of one test: by default its one argument on a line."""
        return f"{args[0]}\n"

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        """The trusted output line of one test."""
        raise NotImplementedError

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        raise NotImplementedError

    def driver_loop(self, p: dict[str, Any]) -> str:
        """The body of the driver's per-test loop: read one test, call, print one line (by default the
        section ``<Template>.driver_loop`` of the templates)."""
        return CODE(f"{type(self).__name__}.driver_loop", p=p)

    def driver(self, p: dict[str, Any]) -> str:
        return CODE("CTemplate.driver", DRIVER_HEAD=DRIVER_HEAD, prototype=self.prototype(p), loop=self.driver_loop(p))


def _ints(values: list[int]) -> str:
    return " ".join(map(str, values))


def _c_array(values: list[int]) -> str:
    return "{" + ", ".join(map(str, values)) + "}"


# --- compact ----------------------------------------------------------------------------------

class Compact(CTemplate):
    name = "compact"
    tier = 1
    PROTOTYPE = "int {function}(int *a, int n)"
    RULES = {  # rule: (text, C test over current and previous, trusted test)
        "divisible": ("divisible by {d}", "current % {d} == 0", lambda x, prev, d: x % d == 0),
        "negative": ("negative", "current < 0", lambda x, prev, d: x < 0),
        "above": ("greater than {d}", "current > {d}", lambda x, prev, d: x > d),
        "repeat": ("equal to the element just before it in the original array",
                   "i > 0 && current == previous", lambda x, prev, d: prev is not None and x == prev),
        "odd": ("odd", "current % 2 != 0", lambda x, prev, d: x % 2 != 0),
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        rule = rng.choice(list(self.RULES))
        d = rng.randint(2, 7) if rule == "divisible" else rng.randint(-5, 15) if rule == "above" else 0
        return {"rule": rule, "d": d, "function": rng.choice(["compact", "drop_matching", "filter_out", "prune"])}

    def statement(self, p: dict[str, Any]) -> str:
        rule = self.RULES[p["rule"]][0].format(d=p["d"])
        return (f"Write the C function\n\n    {self.prototype(p)};\n\nIt removes from the array a (of n >= 0 elements) "
                f"every element that is {rule}, in place: the kept elements move to the front of a, in their original "
                "order, and the function returns how many were kept (what lies after them does not matter).")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        values = [rng.randint(-9, 20) for _ in range(rng.randint(0, size))]
        if p["rule"] == "repeat" and values:
            for i in range(1, len(values)):
                if rng.random() < 0.4:
                    values[i] = values[i - 1]
        return [values]

    def test_input(self, args: list[Any], p: dict[str, Any]) -> str:
        return f"{len(args[0])}\n{_ints(args[0])}\n"

    def kept(self, args: list[Any], p: dict[str, Any]) -> list[int]:
        rule = self.RULES[p["rule"]][2]
        values = args[0]
        return [x for i, x in enumerate(values) if not rule(x, values[i - 1] if i else None, p["d"])]

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        kept = self.kept(args, p)
        return f"{len(kept)}:" + "".join(f" {x}" for x in kept)

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        kept = self.kept(args, p)
        return (f"with a = {_c_array(args[0])} and n = {len(args[0])} it returns {len(kept)}, and a then starts with "
                f"{_c_array(kept)}")

    def reference(self, p: dict[str, Any]) -> str:
        test = self.RULES[p["rule"]][1].format(d=p["d"])
        return CODE("Compact.reference", prototype=self.prototype(p), test=test)


# --- permute ----------------------------------------------------------------------------------

class Permute(CTemplate):
    name = "permute"
    tier = 1
    PROTOTYPE = "void {function}(int *a, int n, int k)"
    KINDS = {
        "rotate_left": "rotates a left by k places: the element at index i moves to index (i - k) mod n",
        "rotate_right": "rotates a right by k places: the element at index i moves to index (i + k) mod n",
        "reverse_blocks": "reverses the order of the elements inside each block of k consecutive elements (indices "
                          "0..k-1, k..2k-1, ...; a last, shorter block is reversed too)",
        "reverse_full_blocks": "reverses the order of the elements inside each full block of k consecutive elements "
                               "(indices 0..k-1, k..2k-1, ...); a last block shorter than k stays as it is",
        "shuffle": "interleaves the first half and the second half: with h = (n + 1) / 2 (rounded down), the result "
                   "is a[0], a[h], a[1], a[h+1], ... (the first half gives the extra element when n is odd); k is "
                   "ignored",
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"kind": rng.choice(list(self.KINDS)),
                "function": rng.choice(["permute", "rearrange", "reorder", "mix"])}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Write the C function\n\n    {self.prototype(p)};\n\nGiven an array a of n >= 1 elements and k >= 1 "
                f"(k may exceed n), it {self.KINDS[p['kind']]}. It changes a in place and returns nothing.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        n = rng.randint(1, size)
        return [[rng.randint(0, 99) for _ in range(n)], rng.randint(1, 2 * n + 1)]

    def test_input(self, args: list[Any], p: dict[str, Any]) -> str:
        return f"{len(args[0])} {args[1]}\n{_ints(args[0])}\n"

    def result(self, args: list[Any], p: dict[str, Any]) -> list[int]:
        a, k = list(args[0]), args[1]
        n, kind = len(a), p["kind"]
        if kind == "rotate_left":
            return [a[(i + k) % n] for i in range(n)]
        if kind == "rotate_right":
            return [a[(i - k) % n] for i in range(n)]
        if kind == "shuffle":
            h = (n + 1) // 2
            return [x for pair in zip(a[:h], a[h:] + [None]) for x in pair if x is not None]
        out = []
        for start in range(0, n, k):
            block = a[start:start + k]
            out += block[::-1] if len(block) == k or kind == "reverse_blocks" else block
        return out

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        return _ints(self.result(args, p))

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        after = _c_array(self.result(args, p))
        return f"with a = {_c_array(args[0])}, n = {len(args[0])} and k = {args[1]}, a becomes {after}"

    def reference(self, p: dict[str, Any]) -> str:
        kind = p["kind"]
        head = (f"#include <stdlib.h>\n#include <string.h>\n\n{self.prototype(p)} {{\n"
                "    int *copy = (int *)malloc(sizeof(int) * (n > 0 ? n : 1));\n")
        if kind in ("rotate_left", "rotate_right"):
            target = "(i - k % n + n) % n" if kind == "rotate_left" else "(i + k) % n"
            body = f"    for (int i = 0; i < n; i++) copy[{target}] = a[i];\n"
        elif kind == "shuffle":
            body = ("    int h = (n + 1) / 2, j = 0;\n    for (int i = 0; i < h; i++) {\n        copy[j++] = a[i];\n"
                    "        if (h + i < n) copy[j++] = a[h + i];\n    }\n")
        else:
            full = "1" if kind == "reverse_blocks" else "start + k <= n"
            body = CODE("Permute.body", full=full)
        return head + body + "    memcpy(a, copy, sizeof(int) * n);\n    free(copy);\n}\n"

    def driver_loop(self, p: dict[str, Any]) -> str:
        return (f"        int n, k;\n        if (scanf(\"%d %d\", &n, &k) != 2 || !read_ints(A, n)) return 1;\n"
                f"        {p['function']}(A, n, k);\n        print_ints(A, n);\n        printf(\"\\n\");")


# --- bits -------------------------------------------------------------------------------------

class Bits(CTemplate):
    name = "bits"
    tier = 2
    PROTOTYPE = "uint32_t {function}(uint32_t x)"
    KINDS = {
        "rotl": ("rotates x left by {r} bits (bits leaving at the top come back at the bottom)",
                 "return (x << {r}) | (x >> (32 - {r}));",
                 lambda x, r: ((x << r) | (x >> (32 - r))) & MASK),
        "rotr": ("rotates x right by {r} bits (bits leaving at the bottom come back at the top)",
                 "return (x >> {r}) | (x << (32 - {r}));",
                 lambda x, r: ((x >> r) | (x << (32 - r))) & MASK),
        "reverse": ("reverses the order of the 32 bits of x (bit 0 becomes bit 31); r is unused",
                    "uint32_t y = 0;\n    for (int i = 0; i < 32; i++) y |= ((x >> i) & 1u) << (31 - i);\n"
                    "    return y;",
                    lambda x, r: int(f"{x:032b}"[::-1], 2)),
        "gray": ("returns the Gray code of x, that is x XOR (x shifted right by 1); r is unused",
                 "return x ^ (x >> 1);", lambda x, r: x ^ (x >> 1)),
        "ungray": ("returns the number whose Gray code (y XOR (y >> 1)) is x; r is unused",
                   "uint32_t y = x;\n    for (int s = 1; s < 32; s <<= 1) y ^= y >> s;\n    return y;",
                   lambda x, r: _ungray(x)),
        "low_bits": ("returns how many of the lowest {r} bits of x are set",
                     "uint32_t m = ({r} >= 32) ? 0xFFFFFFFFu : ((1u << {r}) - 1u);\n    uint32_t v = x & m, c = 0;\n"
                     "    while (v) {{\n        c += v & 1u;\n        v >>= 1;\n    }}\n    return c;",
                     lambda x, r: bin(x & ((1 << r) - 1)).count("1")),
        "swap_pairs": ("swaps every even bit with the odd bit just above it (bit 0 with bit 1, bit 2 with bit 3, ...); "
                       "r is unused",
                       "return ((x & 0x55555555u) << 1) | ((x >> 1) & 0x55555555u);",
                       lambda x, r: (((x & 0x55555555) << 1) | ((x >> 1) & 0x55555555)) & MASK),
        "clear_lowest": ("clears the lowest {r} set bits of x (all of them if it has fewer)",
                         "for (int i = 0; i < {r} && x; i++) x &= x - 1u;\n    return x;",
                         lambda x, r: _clear_lowest(x, r)),
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        kind = rng.choice(list(self.KINDS))
        r = rng.randint(1, 31) if kind in ("rotl", "rotr", "low_bits") else rng.randint(1, 6)
        return {"kind": kind, "r": r, "function": rng.choice(["transform", "bits", "twiddle", "shuffle_bits"])}

    def statement(self, p: dict[str, Any]) -> str:
        what = self.KINDS[p["kind"]][0].format(r=p["r"]).replace("; r is unused", "")
        return (f"Write the C function (with <stdint.h> included)\n\n    {self.prototype(p)};\n\nthat {what}. All "
                "arithmetic is on 32-bit unsigned integers.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        choice = rng.random()
        if choice < 0.15:
            return [rng.choice([0, 1, MASK, 0x80000000, 0x55555555])]
        return [rng.getrandbits(rng.choice([8, 16, 32]))]

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        return str(self.KINDS[p["kind"]][2](args[0], p["r"]) & MASK)

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        return f"{p['function']}({args[0]}u) == {self.expected(args, p)}u"

    def reference(self, p: dict[str, Any]) -> str:
        body = self.KINDS[p["kind"]][1].format(r=p["r"])
        return f"#include <stdint.h>\n\n{self.prototype(p)} {{\n    {body}\n}}\n"

    def driver_loop(self, p: dict[str, Any]) -> str:
        return (f"        unsigned int x;\n        if (scanf(\"%u\", &x) != 1) return 1;\n"
                f"        printf(\"%u\\n\", (unsigned int){p['function']}((uint32_t)x));")


def _ungray(x: int) -> int:
    y, shift = x, 1
    while shift < 32:
        y ^= y >> shift
        shift <<= 1
    return y


def _clear_lowest(x: int, r: int) -> int:
    for _ in range(r):
        if x:
            x &= x - 1
    return x


# --- tokens -----------------------------------------------------------------------------------

class Tokens(CTemplate):
    name = "tokens"
    tier = 2
    PROTOTYPE = "int {function}(const char *s)"
    SEPARATORS = (" ", " ,", " ;", " ,;", " -", " .", " :", ",", ";", " ,.", " /")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"separators": rng.choice(self.SEPARATORS), "least": rng.randint(1, 3),
                "function": rng.choice(["count_tokens", "token_count", "count_pieces", "pieces"])}

    def _names(self, p: dict[str, Any]) -> str:
        names = {" ": "space", ",": "comma", ";": "semicolon", "-": "hyphen", ".": "full stop", ":": "colon",
                 "/": "slash"}
        return ", ".join(f"'{c}' ({names[c]})" for c in p["separators"])

    def statement(self, p: dict[str, Any]) -> str:
        least = "" if p["least"] == 1 else f" that are at least {p['least']} characters long"
        return (f"Write the C function\n\n    {self.prototype(p)};\n\nThe separators are the characters "
                f"{self._names(p)}. A token is a maximal run of characters of the NUL-terminated string s that are not "
                f"separators. The function returns the number of tokens of s{least}.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        pool = p["separators"] * 2 + "abcdexyz01"
        return ["".join(rng.choice(pool) for _ in range(rng.randint(0, 3 * size)))]

    def count(self, text: str, p: dict[str, Any]) -> int:
        tokens, current = [], ""
        for ch in text + p["separators"][0]:
            if ch in p["separators"]:
                if current:
                    tokens.append(current)
                current = ""
            else:
                current += ch
        return sum(len(t) >= p["least"] for t in tokens)

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        return str(self.count(args[0], p))

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        return f"{p['function']}(\"{args[0]}\") == {self.count(args[0], p)}"

    def reference(self, p: dict[str, Any]) -> str:
        separators = p["separators"].replace("\\", "\\\\")
        return CODE("Tokens.reference", prototype=self.prototype(p), separators=separators, p=p)

    def driver_loop(self, p: dict[str, Any]) -> str:
        return (f"        if (!read_line(LINE, sizeof LINE)) return 1;\n"
                f"        printf(\"%d\\n\", {p['function']}(LINE));")


# --- transform --------------------------------------------------------------------------------

class Transform(CTemplate):
    name = "transform"
    tier = 2
    PROTOTYPE = "void {function}(char *s)"
    KINDS = {
        "capitalize": "makes the first letter of every word upper case and every other letter lower case (a word is a "
                      "maximal run of non-space characters)",
        "swapcase": "turns every upper-case letter into lower case and every lower-case letter into upper case",
        "squeeze": "removes the spaces at the start and at the end and replaces every run of spaces inside by one "
                   "space",
        "devowel": "removes every vowel (a, e, i, o, u, in either case), closing the gaps",
        "shift": "replaces every letter by the letter {k} places later in the alphabet, wrapping around from z to a "
                 "(and from Z to A), keeping its case",
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        kind = rng.choice(list(self.KINDS))
        return {"kind": kind, "k": rng.randint(1, 25) if kind == "shift" else 0,
                "function": rng.choice(["transform", "rewrite", "edit_text", "clean"])}

    def statement(self, p: dict[str, Any]) -> str:
        what = self.KINDS[p["kind"]].format(k=p["k"])
        return (f"Write the C function\n\n    {self.prototype(p)};\n\nthat edits the NUL-terminated string s in "
                "place: it "
                f"{what}. Other characters stay as they are. The result must stay NUL-terminated within the original "
                "string's memory.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        pool = "  abcdeiouxyzABEIOUXZ,.1"
        return ["".join(rng.choice(pool) for _ in range(rng.randint(0, 3 * size)))]

    def result(self, text: str, p: dict[str, Any]) -> str:
        kind = p["kind"]
        if kind == "capitalize":
            out, start = [], True
            for ch in text:
                out.append((ch.upper() if start else ch.lower()) if ch.isascii() else ch)
                start = ch == " "
            return "".join(out)
        if kind == "swapcase":
            return text.swapcase()
        if kind == "squeeze":
            return " ".join(part for part in text.split(" ") if part)
        if kind == "devowel":
            return "".join(ch for ch in text if ch.lower() not in "aeiou")
        out = []
        for ch in text:
            if "a" <= ch <= "z":
                ch = chr((ord(ch) - 97 + p["k"]) % 26 + 97)
            elif "A" <= ch <= "Z":
                ch = chr((ord(ch) - 65 + p["k"]) % 26 + 65)
            out.append(ch)
        return "".join(out)

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        return f"[{self.result(args[0], p)}]"

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        return f"\"{args[0]}\" becomes \"{self.result(args[0], p)}\""

    def reference(self, p: dict[str, Any]) -> str:
        body = CODE(f"Transform.{p['kind']}", p=p)
        return f"#include <ctype.h>\n#include <string.h>\n\n{self.prototype(p)} {{\n{body}\n}}\n"

    def driver_loop(self, p: dict[str, Any]) -> str:
        return (f"        if (!read_line(LINE, sizeof LINE)) return 1;\n        {p['function']}(LINE);\n"
                "        printf(\"[%s]\\n\", LINE);")


# --- merge ------------------------------------------------------------------------------------

class Merge(CTemplate):
    name = "merge"
    tier = 2
    PROTOTYPE = "int {function}(const int *a, int n, const int *b, int m, int *out)"
    KINDS = {
        "union": "every value that occurs in a or in b",
        "intersection": "every value that occurs in both a and b",
        "difference": "every value that occurs in a but not in b",
        "symmetric": "every value that occurs in exactly one of a and b",
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"kind": rng.choice(list(self.KINDS)), "descending": rng.random() < 0.3,
                "function": rng.choice(["merge_sets", "combine", "set_merge", "join_sorted"])}

    def statement(self, p: dict[str, Any]) -> str:
        order = "non-increasing" if p["descending"] else "non-decreasing"
        return (f"Write the C function\n\n    {self.prototype(p)};\n\nThe arrays a (n elements) and b (m elements) "
                f"are each sorted in {order} order and may contain repeated values. The function writes to out, in "
                f"the same order, {self.KINDS[p['kind']]}, each value once, and returns how many values it wrote "
                "(out has room for n + m values).")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        top = max(3, size)
        a = sorted((rng.randint(0, top) for _ in range(rng.randint(0, size))), reverse=p["descending"])
        b = sorted((rng.randint(0, top) for _ in range(rng.randint(0, size))), reverse=p["descending"])
        return [a, b]

    def test_input(self, args: list[Any], p: dict[str, Any]) -> str:
        a, b = args
        return f"{len(a)} {len(b)}\n{_ints(a)}\n{_ints(b)}\n"

    def result(self, args: list[Any], p: dict[str, Any]) -> list[int]:
        a, b = set(args[0]), set(args[1])
        chosen = {"union": a | b, "intersection": a & b, "difference": a - b, "symmetric": a ^ b}[p["kind"]]
        return sorted(chosen, reverse=p["descending"])

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        out = self.result(args, p)
        return f"{len(out)}:" + "".join(f" {x}" for x in out)

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        a, b = args
        out = self.result(args, p)
        return f"with a = {_c_array(a)} and b = {_c_array(b)} it writes {_c_array(out)} and returns {len(out)}"

    def reference(self, p: dict[str, Any]) -> str:
        keep = {"union": "in_a || in_b", "intersection": "in_a && in_b", "difference": "in_a && !in_b",
                "symmetric": "in_a != in_b"}[p["kind"]]
        before = ">" if p["descending"] else "<"
        return CODE("Merge.reference", prototype=self.prototype(p), before=before, keep=keep)


# --- matrix -----------------------------------------------------------------------------------

class Matrix(CTemplate):
    name = "matrix"
    tier = 3
    PROTOTYPE = "void {function}(const int *m, int rows, int cols, int *out)"
    KINDS = {
        "spiral_cw": "the elements in clockwise spiral order, starting at the top-left corner and going right first",
        "spiral_ccw": "the elements in counter-clockwise spiral order, starting at the top-left corner and going "
                      "down first",
        "rotate_cw": "the matrix rotated 90 degrees clockwise, in row-major order (it has cols rows and rows columns)",
        "rotate_ccw": "the matrix rotated 90 degrees counter-clockwise, in row-major order (cols rows, rows columns)",
        "zigzag": "the rows read alternately left to right and right to left (the first row left to right)",
        "columns": "the columns read one after the other, each from top to bottom",
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"kind": rng.choice(list(self.KINDS)),
                "function": rng.choice(["flatten", "read_order", "walk", "unroll"])}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Write the C function\n\n    {self.prototype(p)};\n\nThe matrix m has rows >= 1 rows and cols >= 1 "
                "columns stored in row-major order (element (r, c) is m[r * cols + c]). The function writes to out "
                f"(room for rows * cols values) {self.KINDS[p['kind']]}.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        side = max(1, int(size ** 0.5) + 1)
        rows, cols = rng.randint(1, side), rng.randint(1, side)
        return [[[rng.randint(0, 99) for _ in range(cols)] for _ in range(rows)]]

    def test_input(self, args: list[Any], p: dict[str, Any]) -> str:
        grid = args[0]
        return f"{len(grid)} {len(grid[0])}\n" + "".join(_ints(row) + "\n" for row in grid)

    def result(self, grid: list[list[int]], p: dict[str, Any]) -> list[int]:
        kind = p["kind"]
        if kind == "zigzag":
            return [x for r, row in enumerate(grid) for x in (row if r % 2 == 0 else row[::-1])]
        if kind == "columns":
            return [row[c] for c in range(len(grid[0])) for row in grid]
        if kind == "rotate_cw":
            return [x for row in zip(*grid[::-1]) for x in row]
        if kind == "rotate_ccw":
            return [x for row in list(zip(*grid))[::-1] for x in row]
        g = [list(row) for row in (grid if kind == "spiral_cw" else [list(col) for col in zip(*grid)])]
        out = []
        while g:
            out += g.pop(0)
            g = [list(row) for row in zip(*g)][::-1] if g else []
        return out

    def expected(self, args: list[Any], p: dict[str, Any]) -> str:
        return _ints(self.result(args[0], p))

    def example(self, args: list[Any], p: dict[str, Any]) -> str:
        grid = args[0]
        flat = [x for row in grid for x in row]
        return (f"with rows = {len(grid)}, cols = {len(grid[0])} and m = {_c_array(flat)} it writes "
                f"{_c_array(self.result(grid, p))}")

    def reference(self, p: dict[str, Any]) -> str:
        body = CODE(f"Matrix.{p['kind']}")
        return f"{self.prototype(p)} {{\n{body}\n}}\n"


TEMPLATES: dict[str, CTemplate] = {t.name: t for t in (Compact(), Permute(), Bits(), Tokens(), Transform(), Merge(),
                                                       Matrix())}


@register
class CFunctions(TemplatedTask):
    id = "code/c_functions"
    description = "Write a C function (in-place arrays, strings, 32-bit bits, matrices) checked by a test driver."
    tags = ("code", "programming", "c", "pointers")
    languages = ("c",)
    toolchains = languages
    templates = TEMPLATES
    version = 2  # the tests reject every stated integer parameter moved by one (``pins_constants``)

    Config = SizedConfig

    presets = (
        Config(("compact", "permute", "bits"), max_size=5, tests=5),
        Config(("compact", "permute", "bits", "tokens"), max_size=8, tests=6),
        Config(("permute", "bits", "tokens", "transform", "merge"), max_size=12, tests=8),
        Config(("tokens", "transform", "merge", "matrix", "bits"), max_size=20, tests=10),
        Config(("transform", "merge", "matrix"), max_size=30, tests=12),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: SizedConfig) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            p = template.params(rng)
            tests = [template.args(rng, p, rng.randint(2, config.max_size)) for _ in range(config.tests)]
            expected = [template.expected(args, p) for args in tests]
            # every stated integer parameter moved by one must fail some test (v1: an off-by-one distance passed
            # ~25% of the level-0 compact problems, the tokens' length bound ~20% at level 2)
            stated = [k for k, v in p.items() if type(v) is int]
            near = (q for q in near_misses(p, stated) if template.statement(q) != template.statement(p))
            if len(set(expected)) < min(3, len(expected)) or not pins_constants(
                    near, lambda q: [template.expected(args, q) for args in tests], expected):
                return None
            shown = sorted(range(len(tests)), key=lambda i: (len(expected[i]), i))
            shown = [i for i in shown if len(expected[i]) > 3][:2] or shown[:2]
            examples = "\n".join(f"- {template.example(tests[i], p)}" for i in sorted(shown))
            prompt = (
                f"{template.statement(p)}\n\nExamples:\n{examples}\n\n"
                "Your code is compiled (gcc -std=gnu17 -O2) together with a test driver that calls the function on "
                "hidden tests; do not write a main function. Include the headers your code needs. "
                + convention(self.languages,
                             shape=f"#include <string.h>\n\n{template.prototype(p)} {{\n    /* ... */\n}}")
            )
            return self.templated_problem(template, p, prompt, tests=tests, expected=expected,
                                          inputs=[template.test_input(args, p) for args in tests])

        return retry(draw, attempts=50, what="a C function problem with varied results")

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["params"]["function"]  # the name in the template's prototype
